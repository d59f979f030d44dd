/** Built-in number formats that show dates or times (including the East Asian locale dates). */
const BUILT_IN_DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

export function isBuiltInDateFormatId(id: number): boolean {
  return BUILT_IN_DATE_FORMAT_IDS.has(id);
}

/**
 * A format's sections (`positive;negative;zero;text`), each as the characters that are format tokens
 * (outside quoted text, escapes and [brackets]) and the contents of its [brackets] (colours,
 * conditions, locales, elapsed-time units).
 */
function formatSections(code: string): Array<{ tokens: string; brackets: string[] }> {
  const sections = [{ tokens: '', brackets: [] as string[] }];
  let current = sections[0]!;
  let inQuote = false;
  let bracketStart = -1;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i] ?? '';
    if (inQuote) {
      if (ch === '"') inQuote = false;
      continue;
    }
    if (bracketStart !== -1) {
      if (ch === ']') {
        current.brackets.push(code.slice(bracketStart + 1, i));
        bracketStart = -1;
      }
      continue;
    }
    if (ch === '"') inQuote = true;
    else if (ch === '[') bracketStart = i;
    else if (ch === '\\' || ch === '_' || ch === '*') i++;
    else if (ch === ';') {
      current = { tokens: '', brackets: [] };
      sections.push(current);
    } else current.tokens += ch;
  }
  return sections;
}

/** `[h]`, `[hh]`, `[mm]`, `[ss]`: hours, minutes or seconds counted past 24, 60, 60. */
const ELAPSED_UNIT = /^(h+|m+|s+)$/i;

/**
 * A custom format shows a date or time when any of its sections has a day, month, year, hour or
 * second token or an elapsed-time unit: a first section that is only a condition (`[=0]?`) does
 * not make the others plain numbers. "AM/PM" is removed first because its M is not a month.
 */
export function isDateFormatCode(code: string): boolean {
  return formatSections(code).some(
    ({ tokens, brackets }) =>
      /[dmyhs]/i.test(tokens.replace(/a\/p|am\/pm/gi, '')) || brackets.some((b) => ELAPSED_UNIT.test(b)),
  );
}

/** Whether a format shows a duration (`[h]:mm:ss`, `[mm]:ss`) rather than a time of day. */
export function isElapsedFormatCode(code: string): boolean {
  return formatSections(code).some(({ brackets }) => brackets.some((b) => ELAPSED_UNIT.test(b)));
}

/** Whether a format shows a calendar date at all (as opposed to a time of day only). */
export function formatHasDatePart(code: string): boolean {
  return /[dy]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]/g, ''));
}

/** How a number format shows a number: plain, a date (maybe with time), a time of day, or a duration. */
export const NumberDisplay = { Number: 0, Date: 1, TimeOnly: 2, Elapsed: 3 } as const;
export type NumberDisplay = (typeof NumberDisplay)[keyof typeof NumberDisplay];

/** Time-only built-in formats (h:mm AM/PM … mm:ss), and the elapsed-time one ([h]:mm:ss). */
const BUILT_IN_TIME_ONLY = new Set([18, 19, 20, 21, 45, 47]);
const BUILT_IN_ELAPSED = 46;

/**
 * A format that only pads whole numbers with zeros ("00000", Excel's ZIP code, and the usual way
 * to keep an employee or account number's leading zeros): its width, else 0.
 */
export function zeroPaddedWidth(code: string): number {
  const plain = code.trim();
  return /^0{2,40}$/.test(plain) ? plain.length : 0;
}

/** In a table of displays per style: a zero-padded format is this plus its width. */
export const ZERO_PADDED_DISPLAY = 16;

export function displayOfFormatCode(code: string): NumberDisplay {
  if (isElapsedFormatCode(code)) return NumberDisplay.Elapsed;
  if (!isDateFormatCode(code)) return NumberDisplay.Number;
  return formatHasDatePart(code) ? NumberDisplay.Date : NumberDisplay.TimeOnly;
}

export function displayOfBuiltInFormat(id: number): NumberDisplay {
  if (id === BUILT_IN_ELAPSED) return NumberDisplay.Elapsed;
  if (!isBuiltInDateFormatId(id)) return NumberDisplay.Number;
  return BUILT_IN_TIME_ONLY.has(id) ? NumberDisplay.TimeOnly : NumberDisplay.Date;
}
