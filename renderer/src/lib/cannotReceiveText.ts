import { dayWords } from './dates';
import type { CannotReceive } from '../../../shared/contract/searchChannels';

/** "Cannot receive money: the cause cannot … (a donation to it was declined on 25 Nov 2026)". */
export function cannotReceiveText(c: CannotReceive): string {
  return `Cannot receive money: ${c.reason.charAt(0).toLowerCase()}${c.reason.slice(1)} (a donation to it was declined ${dayWords(c.declinedAt)}).`;
}
