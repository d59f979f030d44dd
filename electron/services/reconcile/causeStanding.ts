import type { CannotReceive } from '../../../shared/contract/searchChannels';
import { codeWord } from '../../../shared/i18n';
import type { StoredDonation } from './donationStore';

/** Decline codes that say the cause itself cannot take money now (not the row, not the budget). */
export const CAUSE_CODES = new Set(['CAUSE_NOT_IN_GOOD_STANDING']);
const PAID_ON = new Set(['INITIATED', 'IN_PROGRESS', 'PAID', 'CLEARED']);

/** The cause part of a recipient id (a cause, or a cause/project pair). */
export const causeOf = (recipientId: string): string => recipientId.split('/')[0] ?? recipientId;

/**
 * Causes that cannot receive money, as far as this app has seen: the service offers no standing on
 * its cause look-ups, so the only word on it is a decline for that reason. A cause counts as unable
 * when its latest news is such a decline; a donation to it initiated after the decline clears it.
 */
export function causesThatCannotReceive(donations: readonly StoredDonation[]): Map<string, CannotReceive> {
  const latest = new Map<string, { at: string; cannot: CannotReceive | null }>();
  const note = (causeId: string, at: string, cannot: CannotReceive | null) => {
    const seen = latest.get(causeId);
    if (!seen || at > seen.at) latest.set(causeId, { at, cannot });
  };
  for (const d of donations) {
    const a = d.resource.attributes;
    const causeId = causeOf(a.destination.recipientId);
    if (a.state.processingStatus === 'DECLINED') {
      const error = (a.state.errors ?? []).find((e) => e.code && CAUSE_CODES.has(e.code));
      if (!error?.code) continue;
      const at = a.state.statusLastUpdated ?? d.lastSeenAt;
      note(causeId, at, {
        code: error.code,
        reason: codeWord(error.code),
        declinedAt: at,
        donationId: d.resource.id,
      });
      continue;
    }
    // When it was first known to be on its way to being paid: the cause was in standing then.
    const initiated = d.history
      .filter((h) => PAID_ON.has(h.state))
      .map((h) => h.statusLastUpdated ?? h.seenAt)
      .sort()[0];
    if (initiated) note(causeId, initiated, null);
  }
  const result = new Map<string, CannotReceive>();
  for (const [causeId, { cannot }] of latest) if (cannot) result.set(causeId, cannot);
  return result;
}
