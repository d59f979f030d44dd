/*
 * Team mode: the corrections an upload claimed (its rows that carry ddReplaces) are given back once
 * that upload surely created no replacement for them, so the declined donation is not shown "being
 * corrected" across the team for good. Only what the ledger proves is given back; anything unsure
 * (a file that may have landed, a bulk still processing, a listing not read yet) keeps its claim:
 * "being corrected" never pays twice. A row that did get a donation is finished by Reconcile's
 * refresh, which links the replacement. The team's send gate does the giving back
 * (team/sendGate/correctionGiveBack.ts); here is what the ledger proves.
 */
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { SENT_STATES } from '../ledger/ledgerShapes';

/** Attempt states after which the service may hold the part's file, and so may create its donations. */
const MAY_HOLD_FILE: ReadonlySet<string> = new Set<string>(['uploading', ...SENT_STATES]);

/** Approval states of an upload that was never released to be sent. */
export const NEVER_SENT: ReadonlySet<string> = new Set(['submitting', 'waiting', 'approved']);

/**
 * Whether row `rowKey` of `group` got no donation and never will: the upload was stopped before any
 * attempt of the row's part could reach the service, or the part's last bulk ended in ERROR and the
 * service's listing of its donations has none for the row.
 */
export function rowCreatedNothing(
  group: LedgerGroup,
  intents: readonly LedgerIntent[],
  rowKey: number,
): boolean {
  const part = group.parts.find((p) => p.rowKeys.includes(rowKey));
  if (!part) return false;
  const attempts = intents.filter((i) => i.groupId === group.id && i.part === part.index);
  if (group.stopped && attempts.every((i) => !MAY_HOLD_FILE.has(i.state))) return true;
  const last = attempts.filter((i) => i.state !== 'abandoned').at(-1);
  return last?.state === 'ERROR' && last.donationRowKeys !== null && !last.donationRowKeys.includes(rowKey);
}

/**
 * Per upload of the ledger, the declined donations whose claim it may give back: every upload that
 * carries the donation (a later resend carries it again) created nothing for it.
 */
export function claimsToGiveBack(
  groups: readonly LedgerGroup[],
  intents: readonly LedgerIntent[],
): Map<string, string[]> {
  const free = new Map<string, boolean>();
  for (const group of groups) {
    for (const { rowKey, donationId } of group.replaces ?? []) {
      free.set(donationId, (free.get(donationId) ?? true) && rowCreatedNothing(group, intents, rowKey));
    }
  }
  const found = new Map<string, string[]>();
  for (const group of groups) {
    const ids = (group.replaces ?? []).map((r) => r.donationId).filter((id) => free.get(id));
    if (ids.length > 0) found.set(group.id, ids);
  }
  return found;
}

/** How a claim already settled by an earlier pass is remembered (upload id, declined donation id). */
export const settledKey = (uploadId: string, donationId: string): string => `${uploadId} ${donationId}`;
