/*
 * Team mode: gives back the corrections claimed by uploads that surely created nothing for them
 * (see upload/correctionClaims.ts for what the ledger proves), so the declined donations are no
 * longer shown "being corrected" across the team.
 */
import type { LedgerGroup } from '../../ledger/ledgerShapes';
import type { LedgerStore } from '../../ledger/ledgerStore';
import { NEVER_SENT, claimsToGiveBack, settledKey } from '../../upload/correctionClaims';
import type { TeamDatabase } from '../teamTypes';

/**
 * Gives back the claims of ended uploads (those in `only`, else all), except those in `settled`, and
 * returns the claims (settledKey) now known not to be held for their upload any more. Throws when the
 * team database cannot be asked; the caller tries again later.
 */
export async function giveBackEndedCorrections(
  ledger: LedgerStore,
  team: TeamDatabase,
  only: ReadonlySet<string> | null,
  settled: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const groups = ledger.allGroups();
  const candidates = claimsToGiveBack(groups, ledger.allIntents());
  for (const [id, ids] of [...candidates]) {
    const group = ledger.group(id);
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
      const group = ledger.group(uploadId) as LedgerGroup;
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
