/*
 * The file against the preparer's declaration: each way they differ, in a sentence an approver can
 * act on. Any difference blocks approval: the declaration came from the preparer's computer, which
 * the approver has no reason to trust over the file itself.
 */
import { currencyDigits, minorToMajorString } from '../../../../shared/amounts';
import { count } from '../../../../shared/i18n';
import type { CurrencyTotal, ReviewFacts } from '../teamTypes';

export const TELL_ADMIN = 'Do not approve it: tell your desk admin.';

/** "USD 4,999,995.00": the currency's code, then the amount with its thousands grouped. */
export function codeAmount(amount: number, currencyCode: string): string {
  const text =
    currencyDigits(currencyCode) === undefined ? String(amount) : minorToMajorString(amount, currencyCode);
  const negative = text.startsWith('-');
  const [whole = '', decimals] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${currencyCode} ${negative ? '-' : ''}${grouped}${decimals !== undefined ? `.${decimals}` : ''}`;
}

const amountsOf = (totals: readonly CurrencyTotal[]) =>
  totals.length === 0
    ? 'nothing'
    : [...totals]
        .sort((a, b) => a.currencyCode.localeCompare(b.currencyCode))
        .map((t) => codeAmount(t.amount, t.currencyCode))
        .join(' and ');

const countOf = (totals: readonly CurrencyTotal[]) => totals.reduce((n, t) => n + t.count, 0);

function sameTotals(a: readonly CurrencyTotal[], b: readonly CurrencyTotal[]): boolean {
  const key = (t: readonly CurrencyTotal[]) =>
    [...t]
      .filter((x) => x.count !== 0 || x.amount !== 0)
      .sort((x, y) => x.currencyCode.localeCompare(y.currencyCode))
      .map((x) => `${x.currencyCode}:${x.amount}:${x.count}`)
      .join(',');
  return key(a) === key(b);
}

export interface Declared {
  rows: number;
  totals: readonly CurrencyTotal[];
  largestRecipients: ReviewFacts['largestRecipients'];
}

export interface Computed {
  rows: number;
  totals: readonly CurrencyTotal[];
  largestRecipients: ReviewFacts['largestRecipients'];
}

/** Each difference between the file (computed here) and the declaration; empty when they agree. */
export function declaredDifferences(file: Computed, declared: Declared): string[] {
  const out: string[] = [];
  const totalsDiffer = !sameTotals(file.totals, declared.totals);
  if (totalsDiffer || file.rows !== declared.rows) {
    const declaredRows = Math.max(declared.rows, countOf(declared.totals));
    const declaredWords =
      declaredRows === file.rows
        ? amountsOf(declared.totals)
        : `${count(declaredRows, 'donation')} for ${amountsOf(declared.totals)}`;
    out.push(
      `The file holds ${count(file.rows, 'donation')} for ${amountsOf(file.totals)}; the preparer's app declared ${declaredWords}. ${TELL_ADMIN}`,
    );
  }
  const recipients = (list: Declared['largestRecipients']) =>
    list.map((r) => `${r.recipientId}:${r.currencyCode}:${r.amount}:${r.count}`).join(',');
  if (!totalsDiffer && recipients(file.largestRecipients) !== recipients(declared.largestRecipients)) {
    out.push(`The largest recipients in the file are not those the preparer's app declared. ${TELL_ADMIN}`);
  }
  return out;
}
