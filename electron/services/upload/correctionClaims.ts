/*
 * Team mode: the corrections an upload claimed (its rows that carry ddReplaces) are given back once
 * that upload surely created no replacement for them, so the declined donation is not shown "being
 * corrected" across the team for good. Only what the ledger proves is given back; anything unsure
 * (a file that may have landed, a bulk still processing, a listing not read yet) keeps its claim:
 * "being corrected" never pays twice. A row that did get a donation is finished by Reconcile's
 * refresh, which links the replacement.
 */
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerSchema';
import { SENT_STATES } from '../ledger/ledgerSchema';
import type { UploadContext } from './context';

/** Attempt states after which the service may hold the part's file, and so may create its donations. */
const MAY_HOLD_FILE: ReadonlySet<string> = new Set<string>(['uploading', ...SENT_STATES]);

/** Approval states of an upload that was never released to be sent. */
const NEVER_SENT: ReadonlySet<string> = new Set(['submitting', 'waiting', 'approved']);

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

/**
 * Gives back the claims of ended uploads (those in `only`, else all), except those in `settled`, and
 * returns the claims (settledKey) now known not to be held for their upload any more. Throws when the
 * team database cannot be asked; the caller tries again later.
 */
export async function giveBackEndedCorrections(
  ctx: UploadContext,
  only: ReadonlySet<string> | null,
  settled: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const team = ctx.team?.() ?? null;
  if (!team) return [];
  const groups = ctx.ledger.allGroups();
  const candidates = claimsToGiveBack(groups, ctx.ledger.allIntents());
  for (const [id, ids] of [...candidates]) {
    const group = ctx.ledger.group(id);
    // Only the database the upload was submitted to holds its claims.
    const ours = group?.approval && group.approval.server === team.server;
    const open = ids.filter((d) => !settled.has(settledKey(id, d)));
    if (!ours || (only && !only.has(id)) || open.length === 0) candidates.delete(id);
    else candidates.set(id, open);
  }
  if (candidates.size === 0) return [];
  const held = await team.uploadCorrections([...candidates.keys()]);
  const heldBy = new Map<string, Set<string>>();
  for (const { uploadId, donationId } of held) {
    const set = heldBy.get(uploadId) ?? new Set<string>();
    set.add(donationId);
    heldBy.set(uploadId, set);
  }
  const done: string[] = [];
  for (const [uploadId, ids] of candidates) {
    const mine = heldBy.get(uploadId);
    const give = mine ? ids.filter((id) => mine.has(id)) : [];
    if (give.length > 0) {
      const group = ctx.ledger.group(uploadId) as LedgerGroup;
      // Stopped before it was released: the team's record of it is voided too (as an edit or a failed
      // submission does), which gives back every claim held for it at once.
      if (group.stopped && group.approval && NEVER_SENT.has(group.approval.state)) {
        await team.voidUpload(uploadId, group.stopped.reason).catch(() => null);
      }
      await team.giveBackUploadCorrections(uploadId, give);
    }
    done.push(...ids.map((id) => settledKey(uploadId, id)));
  }
  return done;
}
