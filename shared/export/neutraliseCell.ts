/**
 * A cell written out to a spreadsheet must not run as a formula when someone opens the file
 * (CSV/formula injection). Text starting with = + - @, a tab or a carriage return gets a leading
 * apostrophe, which spreadsheet programs show as text. Plain numbers such as "-12.50" are left as
 * they are: they are data, not formulas.
 */
export function neutraliseCell(value: string): string {
  if (!/^[=+\-@\t\r]/.test(value)) return value;
  if (/^[+-]?\d[\d,. ]*$/.test(value)) return value;
  return `'${value}`;
}
