import type { NumberStyle } from './types';

/**
 * Guesses a file's number style from its amount cells. Only unambiguous cells vote: "1.234,56"
 * (both marks: the last one is the decimal), "12,5" (one comma not followed by three digits),
 * "1.234.567" (a repeated mark groups thousands). "1,234" could be either and does not vote.
 * Numbers from the spreadsheet carry no style and are ignored. With no decisive cell, "1.234"-only
 * files are comma-decimal; anything else, or a tie, is dot-decimal.
 */
export function detectNumberStyle(samples: Iterable<unknown>): NumberStyle {
  let dot = 0;
  let comma = 0;
  let threeAfterDot = 0;
  let threeAfterComma = 0;
  for (const sample of samples) {
    if (typeof sample !== 'string') continue;
    const vote = voteOf(sample);
    if (vote === 'dot-decimal') dot++;
    else if (vote === 'comma-decimal') comma++;
    else if (/^\D*\d{1,3}\.\d{3}\D*$/.test(sample.trim())) threeAfterDot++;
    else if (/^\D*\d{1,3},\d{3}\D*$/.test(sample.trim())) threeAfterComma++;
  }
  if (comma !== dot) return comma > dot ? 'comma-decimal' : 'dot-decimal';
  // Only look-alikes such as "1.234" and "2.500": amounts with exactly three decimals are rare,
  // so a file whose every such cell has a dot before three digits groups thousands with dots.
  if (threeAfterDot > 0 && threeAfterComma === 0) return 'comma-decimal';
  return 'dot-decimal';
}

function voteOf(text: string): NumberStyle | undefined {
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? 'dot-decimal' : 'comma-decimal';
  const mark = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : undefined;
  if (mark === undefined) return undefined;
  const repeated = text.indexOf(mark) !== text.lastIndexOf(mark);
  const after = /^\d*/.exec(text.slice(text.lastIndexOf(mark) + 1))?.[0] ?? '';
  const asDecimal: NumberStyle = mark === '.' ? 'dot-decimal' : 'comma-decimal';
  const asGrouping: NumberStyle = mark === '.' ? 'comma-decimal' : 'dot-decimal';
  if (repeated) return asGrouping;
  // "25.-" / "25,–": a whole-amount mark, the mark is the decimal one.
  if (after.length === 0) return /[.,][-\u2013\u2014]/.test(text) ? asDecimal : undefined;
  if (after.length !== 3) return asDecimal;
  // "1 234,567" (space groups + comma) is still a decimal comma; "0,125" cannot be grouping.
  if (/^\D*0[.,]/.test(text)) return asDecimal;
  return undefined;
}
