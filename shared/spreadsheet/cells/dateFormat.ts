/** Built-in number formats that show dates or times (including the East Asian locale dates). */
const BUILT_IN_DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

export function isBuiltInDateFormatId(id: number): boolean {
  return BUILT_IN_DATE_FORMAT_IDS.has(id);
}

/**
 * A custom format shows a date when, outside quoted text, escapes and [brackets] (colours,
 * conditions, locales, elapsed-time durations), its first section has a day, month, year, hour or
 * second token. "AM/PM" is removed first because its M is not a month.
 */
export function isDateFormatCode(code: string): boolean {
  let section = '';
  let inQuote = false;
  let inBracket = false;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i] ?? '';
    if (inQuote) {
      if (ch === '"') inQuote = false;
      continue;
    }
    if (inBracket) {
      if (ch === ']') inBracket = false;
      continue;
    }
    if (ch === '"') inQuote = true;
    else if (ch === '[') inBracket = true;
    else if (ch === '\\' || ch === '_' || ch === '*') i++;
    else if (ch === ';') break;
    else section += ch;
  }
  const tokens = section.replace(/a\/p|am\/pm/gi, '');
  return /[dmyhs]/i.test(tokens);
}

/** Whether a format shows a calendar date at all (as opposed to a time of day only). */
export function formatHasDatePart(code: string): boolean {
  return /[dy]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]/g, ''));
}
