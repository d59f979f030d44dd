import type { ChannelResponse } from '../../../../shared/contract';
import type { Result } from '../../../../shared/result';

/**
 * Why removing a location at the service did not happen, in words for the person; null when the
 * service removed it.
 */
export function removalProblem(result: Result<ChannelResponse<'locations.batch'>>): string | null {
  const outcome = result.ok ? result.value.outcomes[0] : undefined;
  if (result.ok && outcome?.status === 'applied') return null;
  return !result.ok
    ? result.error.message
    : outcome?.status === 'failed'
      ? outcome.errors.map((e) => e.message).join(' ')
      : 'The service did not remove it.';
}
