import { formatMinor } from '../../../../shared/amounts';

export interface CurrencyTotal {
  currencyCode: string;
  /** Minor units. */
  amount: number;
  count: number;
}

export interface CurrencyChange {
  currencyCode: string;
  /** This upload, in minor units. */
  now: number;
  /** What the team sent the month before, in minor units (0 when nothing). */
  before: number;
  /** "+$120.00", "−€5.00", "no change". */
  change: string;
  /** "+12.5%", "−3.0%"; null when nothing went out the month before (no base to compare with). */
  percent: string | null;
}

const MINUS = '\u2212';

function signed(amount: number, currencyCode: string, locale?: string): string {
  if (amount === 0) return 'no change';
  const text = formatMinor(Math.abs(amount), currencyCode, locale);
  return amount > 0 ? `+${text}` : `${MINUS}${text}`;
}

/**
 * The change from the month before, one currency at a time (never added across currencies), for
 * every currency in this upload or in the month before.
 */
export function changeFromMonthBefore(
  now: readonly CurrencyTotal[],
  before: readonly CurrencyTotal[],
  locale?: string,
): CurrencyChange[] {
  const codes = [...new Set([...now.map((t) => t.currencyCode), ...before.map((t) => t.currencyCode)])];
  return codes.map((currencyCode) => {
    const a = now.find((t) => t.currencyCode === currencyCode)?.amount ?? 0;
    const b = before.find((t) => t.currencyCode === currencyCode)?.amount ?? 0;
    const diff = a - b;
    let percent: string | null = null;
    if (b !== 0) {
      const p = (diff / b) * 100;
      const text = Math.abs(p).toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      percent = diff === 0 ? '0.0%' : `${diff > 0 ? '+' : MINUS}${text}%`;
    }
    return { currencyCode, now: a, before: b, change: signed(diff, currencyCode, locale), percent };
  });
}

/** "2026-10" → "October 2026". */
export function monthName(month: string, locale?: string): string {
  const [year, mon] = month.split('-').map(Number);
  if (!year || !mon) return month;
  return new Date(Date.UTC(year, mon - 1, 1)).toLocaleString(locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
