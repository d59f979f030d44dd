import type { ChannelInput, ChannelResponse } from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import { refuseIfInUpload } from './correctionHandlers';
import type { ReconcileRuntime } from './reconcileContext';
import { replacementsInUploads } from './replacements';
import { donationView } from './views';

/**
 * donations.dismiss: a declined donation closed without a replacement, with the reason. Only an
 * open declined one in no upload; in team mode the dismissal is the team's (ledgerSharing.dismiss),
 * and one a colleague dismissed first keeps their time, reason and name.
 */
export async function dismissDeclined(
  rt: ReconcileRuntime,
  { donationId, reason }: ChannelInput<'donations.dismiss'>,
): Promise<ChannelResponse<'donations.dismiss'>> {
  const { store, ledger, environment } = await rt.context();
  refuseIfInUpload(replacementsInUploads(ledger, environment), donationId);
  const stored = store.get(donationId);
  if (!stored)
    throw new DeskFailure(
      'NOT_FOUND',
      `Donation ${donationId} is not in the list; list the donations first.`,
    );
  if (stored.resource.attributes.state.processingStatus !== 'DECLINED') {
    throw new DeskFailure('NOT_DECLINED', 'Only a declined donation can be dismissed.');
  }
  if (stored.resolution?.kind === 'replaced') {
    throw new DeskFailure(
      'ALREADY_RESOLVED',
      `This donation was already replaced by ${stored.resolution.replacementId}.`,
    );
  }
  const shared = await rt.sharing.dismiss(donationId, reason);
  const dismissed = store.resolve(donationId, {
    kind: 'dismissed',
    at: shared?.at ?? rt.at(),
    reason: shared?.reason ?? reason,
    // Dismissed first by a colleague: theirs stands, and says who.
    ...(shared?.by ? { by: shared.by } : {}),
  });
  await store.save();
  return donationView(dismissed, new Map());
}
