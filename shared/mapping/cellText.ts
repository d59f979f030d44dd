/**
 * A cell as text for text attributes (ids, names, metadata). Numbers keep their shortest form
 * (ids typed as numbers lose nothing the sheet still has); dates become ISO dates, with the time
 * only when there is one; booleans read TRUE/FALSE as the spreadsheet shows them.
 */
export function cellText(cell: unknown): string {
  if (cell === undefined || cell === null) return '';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  if (typeof cell === 'bigint') return cell.toString();
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return '';
    const iso = cell.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return String(cell);
}
