import { dateTime } from '../../lib/dates';
import type { DonationStatus } from '../../../../shared/contract/reconcileChannels';

export const STATUSES: DonationStatus[] = [
  'ACCEPTED',
  'INITIATED',
  'IN_PROGRESS',
  'PAID',
  'CLEARED',
  'DECLINED',
];

/** One colour per state, dark enough for text on white (WCAG AA) as well as for the bars. */
export const STATUS_COLOUR: Record<DonationStatus, string> = {
  ACCEPTED: '#616161',
  INITIATED: '#3949ab',
  IN_PROGRESS: '#1565c0',
  PAID: '#00695c',
  CLEARED: '#2e7d32',
  DECLINED: '#c62828',
};

const currencyNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'currency' });
  } catch {
    return null;
  }
})();

/** "US Dollar (USD)": the currency a person reads, with its code. */
export function currencyLabel(code: string): string {
  const name = currencyNames?.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

/** "Nov 25, 2026, 10:05 AM": the one date format (lib/dates). */
export const time = (iso: string | null): string => dateTime(iso);

/** "Nov 25, 10:05 AM": short enough for a table cell; the full time is in the details. */
export const shortTime = (iso: string | null): string => {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? String(at) : shortFormat().format(at);
};

/** One formatter for every cell (as toLocaleString with these options, which makes one per call). */
let short: Intl.DateTimeFormat | null = null;
const shortFormat = (): Intl.DateTimeFormat =>
  (short ??= new Intl.DateTimeFormat(undefined, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }));

/** Team mode: "sent by alice from LAPTOP-7", for an upload another computer of the team sent; else null. */
export function sentElsewhereNote(upload: {
  sentElsewhere?: { by: string; computer: string } | null;
}): string | null {
  const from = upload.sentElsewhere;
  if (!from) return null;
  return `sent by ${from.by}${from.computer ? ` from ${from.computer}` : ''}`;
}
