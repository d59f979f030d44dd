import { isCurrencyCode } from './currencies';
import { currenciesForSymbol } from './currencySymbols';
import type { DecimalParts, NumberStyle } from './types';

export type DecimalTextFailure = {
  code: 'AMOUNT_EMPTY' | 'AMOUNT_NOT_A_NUMBER' | 'AMOUNT_SEPARATOR_MISMATCH';
  /** Finishes the sentence "Amount "x" ..." */
  reason: string;
};

export type DecimalTextResult =
  { ok: true; value: DecimalParts } | { ok: false; failure: DecimalTextFailure };

const notANumber = (reason: string): DecimalTextResult => ({
  ok: false,
  failure: { code: 'AMOUNT_NOT_A_NUMBER', reason },
});
const mismatch = (reason: string): DecimalTextResult => ({
  ok: false,
  failure: { code: 'AMOUNT_SEPARATOR_MISMATCH', reason },
});

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
// Characters people use to group thousands besides the style's own: all Unicode spaces
// (including the no-break and narrow no-break spaces Excel and French locales produce) and apostrophes.
const isSpaceOrApostrophe = (ch: string): boolean => ch === "'" || ch === '\u2019' || /\s/.test(ch);

/** Reads a currency token ("USD", "eur", "$", "€") around the number; false when it is not one. */
function readCurrencyToken(token: string, parts: DecimalParts): boolean {
  if (token === '') return true;
  const upper = token.toUpperCase();
  if (/^[A-Z]{3}$/.test(upper) && isCurrencyCode(upper)) {
    if (parts.currencyCode !== undefined && parts.currencyCode !== upper) return false;
    parts.currencyCode = upper;
    return true;
  }
  if (currenciesForSymbol(token) !== undefined) {
    if (parts.symbol !== undefined && parts.symbol !== token) return false;
    parts.symbol = token;
    return true;
  }
  return false;
}

/** Takes the signs out of a prefix or suffix ("-$", "$ -", "USD -"), leaving the currency token. */
function stripSigns(text: string, parts: DecimalParts): string | undefined {
  let out = '';
  let signs = 0;
  for (const ch of text) {
    if (ch === '-' || ch === '\u2212') {
      parts.negative = true;
      signs++;
    } else if (ch === '+') signs++;
    else out += ch;
  }
  return signs > 1 ? undefined : out.trim();
}

/** Splits the integer part on its grouping separators and checks the groups look like thousands. */
function readIntegerPart(
  raw: string,
  style: NumberStyle,
): { digits: string } | { bad: 'group' | 'mixed' | 'chars' } {
  const otherMark = style === 'dot-decimal' ? ',' : '.';
  let digits = '';
  const groups: number[] = [];
  let groupLength = 0;
  let separatorKind: 'mark' | 'space' | undefined;
  let lastWasSeparator = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (isDigit(ch.charCodeAt(0))) {
      digits += ch;
      groupLength++;
      lastWasSeparator = false;
      continue;
    }
    const kind = ch === otherMark ? 'mark' : isSpaceOrApostrophe(ch) ? 'space' : undefined;
    if (kind === undefined) return { bad: 'chars' };
    // Runs of spaces count as one separator ("1  234" from a padded cell).
    if (lastWasSeparator && kind === 'space' && separatorKind === 'space') continue;
    if (separatorKind !== undefined && separatorKind !== kind) return { bad: 'mixed' };
    if (groupLength === 0) return { bad: 'group' };
    separatorKind = kind;
    groups.push(groupLength);
    groupLength = 0;
    lastWasSeparator = true;
  }
  if (groups.length > 0) {
    // Thousands (1,234,567) or Indian lakh grouping (12,34,567): last group 3, middle 2 or 3, first 1–3.
    if (groupLength !== 3) return { bad: 'group' };
    const first = groups[0] as number;
    if (first < 1 || first > 3) return { bad: 'group' };
    for (let g = 1; g < groups.length; g++) {
      const size = groups[g] as number;
      if (size !== 2 && size !== 3) return { bad: 'group' };
    }
  }
  return { digits: digits.replace(/^0+/, '') };
}

/**
 * Digits with at most one decimal mark between them ("400.95", "25"): what a spreadsheet's numbers
 * read as, and nearly every amount cell. The general reading below gives the same parts for them;
 * this takes one pass and no slices of slices (it runs for every row of a file).
 */
function plainDecimal(text: string, mark: number): DecimalParts | undefined {
  let at = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) continue;
    if (c !== mark || at >= 0 || i === 0 || i === text.length - 1) return undefined;
    at = i;
  }
  if (text.length === 0) return undefined;
  const end = at < 0 ? text.length : at;
  // Leading zeros count for nothing, as in readIntegerPart.
  let start = 0;
  while (start < end && text.charCodeAt(start) === 48) start++;
  return {
    negative: false,
    intDigits: start === 0 && at < 0 ? text : text.slice(start, end),
    fracDigits: at < 0 ? '' : text.slice(at + 1),
  };
}

/**
 * Parses what a person typed ("1,234.56", "1.234,56", "1 234,56", "1'234.56", "$25", "25 €",
 * "USD 25", "(25)", "25-") into digit strings, in the given number style. Signs are reported,
 * not refused: whether a negative is allowed is the caller's rule.
 */
export function parseDecimalText(text: string, style: NumberStyle): DecimalTextResult {
  const plain = plainDecimal(text, style === 'dot-decimal' ? 46 : 44);
  if (plain) return { ok: true, value: plain };
  let s = text.trim();
  if (s === '') return { ok: false, failure: { code: 'AMOUNT_EMPTY', reason: 'is empty' } };
  const parts: DecimalParts = { negative: false, intDigits: '', fracDigits: '' };
  // Accounting notation: (25.00) is a negative amount.
  if (s.length > 2 && s.startsWith('(') && s.endsWith(')')) {
    parts.negative = true;
    s = s.slice(1, -1).trim();
  }

  let first = -1;
  let last = -1;
  for (let i = 0; i < s.length; i++) {
    if (isDigit(s.charCodeAt(i))) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return notANumber('is not a number');

  let prefix = s.slice(0, first);
  let suffix = s.slice(last + 1);
  // ".50" and "-.5": a bare leading decimal mark belongs to the number.
  const leadMark = prefix.slice(-1);
  if ((leadMark === '.' || leadMark === ',') && /^[\s+\-\u2212]*$/.test(prefix.slice(0, -1))) {
    prefix = prefix.slice(0, -1);
    first--;
  }
  // "25." and the Swiss/German whole-amount marks "25.-" / "25,–".
  const wholeMark = /^[.,](?:[-\u2013\u2014]{1,2})?(?=\s|$)/.exec(suffix);
  if (wholeMark) suffix = suffix.slice(wholeMark[0].length);

  const prefixToken = stripSigns(prefix, parts);
  const suffixToken = stripSigns(suffix, parts);
  if (prefixToken === undefined || suffixToken === undefined) return notANumber('has more than one sign');
  if (!readCurrencyToken(prefixToken, parts) || !readCurrencyToken(suffixToken, parts)) {
    return notANumber('has text that is neither a number nor a currency');
  }

  const body = s.slice(first, last + 1);
  const decimalMark = style === 'dot-decimal' ? '.' : ',';
  const otherMark = style === 'dot-decimal' ? ',' : '.';
  const firstDecimal = body.indexOf(decimalMark);
  if (firstDecimal >= 0 && body.indexOf(decimalMark, firstDecimal + 1) >= 0) {
    return mismatch(`has more than one "${decimalMark}", which this file uses for decimals`);
  }
  const intRaw = firstDecimal >= 0 ? body.slice(0, firstDecimal) : body;
  const fracRaw = firstDecimal >= 0 ? body.slice(firstDecimal + 1) : '';
  for (let i = 0; i < fracRaw.length; i++) {
    if (!isDigit(fracRaw.charCodeAt(i))) {
      return fracRaw.includes(otherMark)
        ? mismatch(`has "${otherMark}" after the decimal "${decimalMark}"`)
        : notANumber('has something other than digits after the decimal mark');
    }
  }
  const integer = readIntegerPart(intRaw, style);
  if ('bad' in integer) {
    if (integer.bad === 'group' && intRaw.includes(otherMark)) {
      return mismatch(`has "${otherMark}" where this file expects "${decimalMark}" for decimals`);
    }
    return notANumber(
      integer.bad === 'group'
        ? 'has digit groups that are not thousands'
        : integer.bad === 'mixed'
          ? 'mixes different thousands separators'
          : 'has characters that are not part of a number',
    );
  }
  parts.intDigits = integer.digits;
  parts.fracDigits = fracRaw;
  return { ok: true, value: parts };
}
