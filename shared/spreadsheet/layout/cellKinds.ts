export function isBlankCell(text: string | undefined): boolean {
  return text === undefined || text.length === 0 || text.trim().length === 0;
}

export function isBlankRow(cells: readonly string[]): boolean {
  for (const cell of cells) if (!isBlankCell(cell)) return false;
  return true;
}

const NUMBER_LIKE = /^[-+(]?\s*[$€£¥]?\s*[-+]?\d[\d,. '\u00a0]*%?\)?$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?$|^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$/;

/** Values that look like data (amounts, ids, dates) rather than a column title. */
export function looksLikeValue(text: string): boolean {
  const trimmed = text.trim();
  return NUMBER_LIKE.test(trimmed) || DATE_LIKE.test(trimmed) || trimmed === 'TRUE' || trimmed === 'FALSE';
}

/**
 * A number as typed, for totals detection only: currency signs, spaces and thousands commas are
 * dropped. Not for amounts that become money; those go through the amounts module.
 */
export function looseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER_LIKE.test(trimmed)) return undefined;
  const negative = trimmed.startsWith('-') || (trimmed.startsWith('(') && trimmed.endsWith(')'));
  const digits = trimmed.replace(/[^\d.]/g, '');
  if (digits === '' || digits.split('.').length > 2) return undefined;
  const value = Number(digits);
  if (!Number.isFinite(value)) return undefined;
  return negative ? -value : value;
}
