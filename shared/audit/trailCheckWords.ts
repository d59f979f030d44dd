import type { TrailCheck } from '../contract/auditChannels';

/** An entry's number as people read it: 1204 → "1,204". */
export function entryNumber(seq: number): string {
  return new Intl.NumberFormat('en').format(seq);
}

/** "2026-11-03 14:22 UTC": the trail's own time, the same on every computer. */
function minuteUtc(at: string): string {
  return `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
}

const TRAIL_NAME: Record<TrailCheck['trail'], string> = {
  folder: 'The data folder’s audit trail',
  team: 'The team’s audit trail',
};

/**
 * One trail's check in a sentence, the same in `donation-desk audit verify`, Settings → Data and
 * the Audit view: "The data folder's audit trail is broken at entry 1,204 (2026-11-03 14:22 UTC):
 * its content was changed after it was written."
 */
export function trailCheckSentence(check: TrailCheck): string {
  const name = TRAIL_NAME[check.trail];
  const entries = `${entryNumber(check.entries)} ${check.entries === 1 ? 'entry' : 'entries'}`;
  if (check.whole || !check.firstBroken) {
    return `${name} is whole: ${entries}, none changed, removed or added from outside the app.`;
  }
  const { seq, at, reason } = check.firstBroken;
  return `${name} is broken at entry ${entryNumber(seq)}${at ? ` (${minuteUtc(at)})` : ''}: ${reason}.`;
}

/** What to do about a broken trail, said once under the sentences. */
export const BROKEN_TRAIL_ADVICE =
  'Keep this data folder as it is and tell your auditor or desk admin: the entries before the one named are as they were written; compare the rest with a backup or the team’s trail.';
