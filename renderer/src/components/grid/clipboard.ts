/**
 * Blocks of cells as Excel puts them on the clipboard: rows separated by newlines, cells by tabs,
 * a cell quoted when it holds a tab, newline or quote.
 */
export function toTsv(block: readonly (readonly string[])[]): string {
  return block
    .map((row) =>
      row.map((cell) => (/[\t\n\r"]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join('\t'),
    )
    .join('\r\n');
}

export function fromTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  // Excel adds one trailing newline to what it copies; it is not an extra empty row.
  const input = text.replace(/\r?\n$/, '');
  while (i < input.length) {
    const ch = input[i] as string;
    if (quoted) {
      if (ch === '"' && input[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        i++;
        continue;
      }
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (ch === '\t') {
      row.push(cell);
      cell = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += ch === '\r' && input[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += ch;
      i++;
    }
  }
  row.push(cell);
  rows.push(row);
  return rows;
}
