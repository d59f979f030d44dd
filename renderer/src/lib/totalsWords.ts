import { formatMinor } from '../../../shared/amounts';
import { count } from '../../../shared/i18n';

export interface CurrencyTotalLike {
  currencyCode: string;
  count: number;
  /** Minor units. */
  amount: number;
}

const lists = new Map<string, Intl.ListFormat>();
function listOf(items: string[], locale?: string): string {
  const key = locale ?? '';
  let format = lists.get(key);
  if (!format) {
    format = new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' });
    lists.set(key, format);
  }
  return format.format(items);
}

/**
 * What a set of donations comes to, each currency on its own, never added across currencies:
 * "$30.00 and €100.00 in 2 donations".
 */
export function totalsInWords(totals: readonly CurrencyTotalLike[], locale?: string): string {
  const donations = totals.reduce((n, t) => n + t.count, 0);
  if (donations === 0) return 'no donations';
  const amounts = totals.map((t) => formatMinor(t.amount, t.currencyCode, locale));
  return `${listOf(amounts, locale)} in ${count(donations, 'donation')}`;
}
