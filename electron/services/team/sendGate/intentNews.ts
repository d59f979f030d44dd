/*
 * Team mode: what the team database hears as a sent upload's bulks move at the service.
 */
import type { LedgerGroup, LedgerIntent } from '../../ledger/ledgerShapes';
import type { UploadBasics } from '../../upload/basics';
import { bulkToPublish } from '../teamLedger';
import type { TeamDatabase } from '../teamTypes';
import { environmentKeyOf } from '../teamUploads';

/** Whether the change from `before` to `next` is news for the shared ledger. */
export function bulkMoved(before: LedgerIntent, next: LedgerIntent): boolean {
  return (
    next.serviceId !== before.serviceId ||
    next.state !== before.state ||
    next.donationRowKeys !== before.donationRowKeys
  );
}

/** Whether the service has just said which rows of a failed bulk got a donation. */
export function refusalKnown(before: LedgerIntent, next: LedgerIntent): boolean {
  return next.state === 'ERROR' && next.donationRowKeys !== null && !before.donationRowKeys;
}

/**
 * The shared ledger hears of each bulk of a sent upload as it moves, so colleagues' Reconcile lists
 * its donations. Best effort: Reconcile on this computer publishes again whatever is missing at its
 * next refresh (with the totals of a part that ended in ERROR part-way, which need the kept file).
 */
export async function publishBulk(
  ctx: Pick<UploadBasics, 'environments'>,
  team: TeamDatabase,
  group: LedgerGroup,
  intent: LedgerIntent,
): Promise<void> {
  if (group.approval?.state !== 'sent') return;
  try {
    const service = await ctx.environments.describe();
    if (service.emulated || service.id !== group.environment) return;
    const bulk = bulkToPublish(group, intent, environmentKeyOf(service), team.server);
    if (bulk) await team.publishBulk(bulk);
  } catch {
    // The server away, or the environment changed: the next refresh publishes it.
  }
}

/**
 * Once the service has said which rows of a failed bulk got a donation, the others are not out, so
 * their claims in the shared guard are given back (else a colleague, or a fresh upload of the fixed
 * rows, would be told they were already sent). Best effort: a claim kept errs towards asking, never
 * towards sending twice.
 */
export function giveBackRefusedRows(team: TeamDatabase, group: LedgerGroup, intent: LedgerIntent): void {
  const approval = group.approval;
  if (!approval || approval.state !== 'sent' || team.server !== approval.server) return;
  const part = group.parts[intent.part];
  if (!part) return;
  const got = new Set(intent.donationRowKeys ?? []);
  const refused = part.fingerprints.filter((_, i) => !got.has(part.rowKeys[i] as number));
  if (refused.length === 0) return;
  void team.releaseRows(group.id, refused).catch(() => undefined);
}
