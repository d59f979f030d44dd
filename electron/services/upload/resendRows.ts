/*
 * What a resend of a failed bulk may send: the rows of its part that the service says have no
 * donation, read again from the service when the bulk may have moved on.
 */
import { DeskFailure } from '../../../shared/result';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import type { LedgerStore } from '../ledger/ledgerStore';
import { saveIntent, type UploadContext } from './context';
import { applyRemote } from './follower';
import { rowsWithDonation } from './repair';

/** The ledger's intent `id`, or a failure that says there is none. */
export function intentOrThrow(ledger: Pick<LedgerStore, 'findIntent'>, id: string): LedgerIntent {
  const intent = ledger.findIntent(id);
  if (!intent)
    throw new DeskFailure('NOT_FOUND', `There is no bulk intent ${id} in this computer’s upload ledger.`);
  return intent;
}

/**
 * The failed intent (read again from the service when it may have moved on) and the rows of its
 * part with no donation yet, as the service says now: what a resend may send.
 */
export async function rowsToResend(
  ctx: UploadContext,
  intentId: string,
): Promise<{ failed: LedgerIntent; wanted: Set<number> }> {
  let failed = intentOrThrow(ctx.ledger, intentId);
  const group = ctx.ledger.group(failed.groupId) as LedgerGroup;
  if (group.workspaceId === '') {
    throw new DeskFailure(
      'NOT_HERE',
      `Bulk ${intentId} was sent from this computer for ${group.approval?.preparer ?? 'a colleague'}, whose workspace holds its rows: they fix and send them again from their computer.`,
    );
  }
  if (failed.state !== 'ERROR' && failed.serviceId) {
    failed = await applyRemote(ctx, failed, await ctx.client.getIntent(failed.serviceId));
  }
  if (failed.state !== 'ERROR') {
    throw new DeskFailure(
      'NOT_IN_ERROR',
      `Bulk ${intentId} is ${failed.state}; only a failed bulk can be corrected.`,
    );
  }
  if (failed.correctedByUpload) {
    throw new DeskFailure(
      'ALREADY_CORRECTED',
      `Bulk ${intentId} was already corrected by upload ${failed.correctedByUpload}; follow that one instead.`,
    );
  }
  // Ask the service again which rows got a donation: what decides what is safe to send.
  const withDonation = await rowsWithDonation(ctx, group, failed);
  failed = await saveIntent(ctx, failed, { donationRowKeys: withDonation });
  const part = group.parts[failed.part];
  if (!part) throw new DeskFailure('NOT_FOUND', 'That part of the upload is not in the ledger.');
  const done = new Set(withDonation);
  const wanted = new Set(part.rowKeys.filter((k) => !done.has(k)));
  if (wanted.size === 0)
    throw new DeskFailure('NOTHING_TO_SEND', 'Every row of this bulk already has a donation.');
  return { failed, wanted };
}
