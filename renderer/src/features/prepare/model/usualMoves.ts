import { formatMinor } from '../../../../../shared/amounts';
import { count, plural } from '../../../../../shared/i18n';

/**
 * The usual (median) amount of a currency moved after a change, and with it which other rows are at
 * least `factor` times it: rows the person did not touch gained or lost the warning.
 */
export interface UsualMove {
  currency: string;
  /** The usual amount before and now, in minor units; undefined while too few rows count. */
  before: number | undefined;
  now: number | undefined;
  factor: number;
  /** Rows not changed themselves that are now flagged, and that no longer are (labels). */
  more: string[];
  fewer: string[];
  /** The changed rows that moved it: now counting, no longer counting, or with another amount. */
  joined: string[];
  left: string[];
  amended: string[];
}

/** A currency needs this many amounts before "usual" means anything (as the file checks). */
export const USUAL_MIN_ROWS = 5;

const SHOWN = 5;

/** "row 5", "rows 5 and 9", "rows 5, 9 and 13", "rows 5, 9, 13, 14, 15 and 3 more". */
export function rowsWords(labels: readonly string[]): string {
  if (labels.length === 1) return `row ${labels[0]}`;
  const shown = labels.slice(0, labels.length > SHOWN ? SHOWN : labels.length - 1);
  const last = labels.length > SHOWN ? `${labels.length - SHOWN} more` : labels[labels.length - 1];
  return `rows ${shown.join(', ')} and ${last}`;
}

/** Why the usual amount moved: "rows 5, 9 and 13 count", "row 7 no longer counts", "row 4 changed". */
export function becauseWords(move: Pick<UsualMove, 'joined' | 'left' | 'amended'>): string {
  const { joined, left, amended } = move;
  const one = (labels: readonly string[], single: string, many: string) =>
    `${rowsWords(labels)} ${labels.length === 1 ? single : many}`;
  if (joined.length && !left.length && !amended.length) return one(joined, 'counts', 'count');
  if (left.length && !joined.length && !amended.length)
    return one(left, 'no longer counts', 'no longer count');
  const all = [...joined, ...left, ...amended];
  if (all.length === 0) return 'the rows changed';
  return one(all, 'changed', 'changed');
}

const money = (minor: number, currency: string) => formatMinor(Math.round(minor), currency);

/**
 * What the summary and the announcement say of a move: "3 more rows are now at least 10 times the
 * usual USD amount: it is $11.00 now that rows 5, 9 and 13 count."
 */
export function usualMoveWords(move: UsualMove): string {
  const { currency, now, factor, more, fewer } = move;
  const because = becauseWords(move);
  const sentences: string[] = [];
  if (more.length) {
    const are = plural(more.length, { one: 'is', other: 'are' });
    sentences.push(
      `${count(more.length, 'more row')} ${are} now at least ${factor} times the usual ${currency} amount: it is ${now === undefined ? 'not known' : money(now, currency)} now that ${because}.`,
    );
  }
  if (fewer.length) {
    const are = plural(fewer.length, { one: 'is', other: 'are' });
    sentences.push(
      now === undefined
        ? `${count(fewer.length, 'row')} ${are} no longer flagged as unusually high: fewer than ${USUAL_MIN_ROWS} ${currency} amounts count now that ${because}, so there is no usual ${currency} amount.`
        : `${count(fewer.length, 'row')} ${are} no longer at least ${factor} times the usual ${currency} amount: it is ${money(now, currency)} now that ${because}.`,
    );
  }
  return sentences.join(' ');
}

/** Added to the warning of a row flagged because the usual amount moved, not because of the row. */
export function flaggedSinceWords(move: UsualMove): string {
  const { currency, before, now } = move;
  const because = becauseWords(move);
  if (now === undefined) return '';
  return before === undefined
    ? `This row is flagged since ${because}: there are now enough ${currency} amounts for a usual one, ${money(now, currency)}.`
    : `This row is flagged since ${because}: the usual ${currency} amount moved from ${money(before, currency)} to ${money(now, currency)}.`;
}
