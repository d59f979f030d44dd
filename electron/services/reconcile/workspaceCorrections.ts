import { donationResponseAttributesSchema } from '../../../shared/bulk-file/serviceShapes';
import { formatMinor } from '../../../shared/amounts';
import type { ChannelResponse, Workspace } from '../../../shared/contract';
import { REPLACES_KEY } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import type { ServiceClient } from '../api/serviceClient';
import { validateWorkspace } from '../upload/prepare';
import { correctable, guarded, sendReplacement } from './corrections';
import type { DonationStore } from './donationStore';
import type { InUpload } from './replacements';
import type { CorrectionGuard } from './ledgerSharing';

type RowResult = ChannelResponse<'donations.correctFromWorkspace'>['results'][number];

/**
 * The rows of a corrections workspace sent one by one with POST /donations: main checks every row
 * with the shared rules again, then each valid row replaces the declined donation it names, under the
 * same guards as a single correction. One row's failure does not stop the others; rows whose declined
 * donation was already replaced are skipped, so running it again finishes what a failure left.
 */
export async function correctFromWorkspace(
  client: ServiceClient,
  store: DonationStore,
  workspace: Workspace,
  inUploads: ReadonlyMap<string, InUpload>,
  at: () => string,
  onProgress: (done: number, total: number) => void,
  /** Team mode: each row's correction is claimed on the team database (see correctDeclined). */
  guard?: CorrectionGuard,
): Promise<RowResult[]> {
  const validated = await validateWorkspace(workspace);
  if (validated.mappingProblems.length > 0) {
    throw new DeskFailure('MAPPING_INCOMPLETE', validated.mappingProblems.join(' '));
  }
  const results: RowResult[] = validated.invalid.map((r) => ({
    rowKey: r.key,
    rowNumber: r.rowNumber,
    declinedId: '',
    outcome: 'invalid' as const,
    replacementId: null,
    message: 'The row still has errors; fix it in the grid first.',
  }));
  const total = validated.ready.length;
  for (const [index, row] of validated.ready.entries()) {
    onProgress(index, total);
    const declinedId = row.donation.metadata?.[REPLACES_KEY] ?? '';
    const base = { rowKey: row.key, rowNumber: row.rowNumber, declinedId };
    const resolution = store.get(declinedId)?.resolution;
    if (!declinedId) {
      results.push({
        ...base,
        outcome: 'failed',
        replacementId: null,
        message: 'The row does not name the declined donation it replaces (“Replaces donation” is empty).',
      });
      continue;
    }
    if (resolution?.kind === 'replaced') {
      results.push({
        ...base,
        outcome: 'already-replaced',
        replacementId: resolution.replacementId,
        message: `Already replaced by ${resolution.replacementId}; not sent again.`,
      });
      continue;
    }
    const upload = inUploads.get(declinedId);
    if (upload) {
      results.push({
        ...base,
        outcome: 'failed',
        replacementId: null,
        message: `Being replaced by the upload of “${upload.workspaceName}”; follow it in Uploads.`,
      });
      continue;
    }
    try {
      const declined = correctable(store, declinedId);
      const { replacement } = await guarded(guard, declinedId, () =>
        sendReplacement(
          client,
          store,
          declined,
          row.donation as unknown as Record<string, unknown>,
          { workspaceId: workspace.id, rowKey: row.key, rowNumber: row.rowNumber, method: 'reference' },
          at,
        ),
      );
      results.push({
        ...base,
        outcome: 'replaced',
        replacementId: replacement.resource.id,
        message: replacedMessage(replacement.resource.attributes),
      });
    } catch (e) {
      results.push({
        ...base,
        outcome: 'failed',
        replacementId: null,
        message: e instanceof Error ? e.message : String(e),
      });
    }
  }
  onProgress(total, total);
  return results.sort((a, b) => a.rowKey - b.rowKey);
}

/** "Replaced with a new donation of $35.00 to 840-446863710." (its id is in `replacementId`). */
function replacedMessage(attributes: unknown): string {
  const parsed = donationResponseAttributesSchema.safeParse(attributes);
  if (!parsed.success) return 'Replaced with a new donation.';
  const { funds, destination } = parsed.data;
  return `Replaced with a new donation of ${formatMinor(funds.amount, funds.currencyCode)} to ${destination.recipientId}.`;
}
