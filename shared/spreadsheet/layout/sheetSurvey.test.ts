import { describe, expect, it } from 'vitest';
import type { MergedRange, RawSheet, SheetRow } from '../types';
import { arrangeSheet } from './arrangeSheet';
import { SheetSurvey, TotalsDecider } from './sheetSurvey';

/** The survey's layout and data rows, with the rows passed again as a streamed pass would. */
function surveyed(raw: RawSheet, headerRow?: number) {
  const survey = new SheetSurvey(headerRow);
  for (const row of raw.rows) survey.add({ rowNumber: row.rowNumber, cells: [...row.cells] });
  const layout = survey.finish(raw.merges);
  const width = layout.headers.length;
  const totals = layout.totals;
  const decider = totals && !totals.decided ? new TotalsDecider(totals) : undefined;
  const rows: SheetRow[] = [];
  let totalsRow: SheetRow | undefined;
  for (const row of raw.rows) {
    if (row.rowNumber <= layout.headerEnd || row.cells.every((c) => c.trim() === '')) continue;
    const cells = [...row.cells.slice(0, width)];
    while (cells.length < width) cells.push('');
    if (totals && row.rowNumber === totals.rowNumber && (totals.decided || decider!.isTotals())) {
      totalsRow = { rowNumber: row.rowNumber, cells };
      continue;
    }
    decider?.add(row);
    rows.push({ rowNumber: row.rowNumber, cells });
  }
  return { layout, rows, totalsRow };
}

function compare(raw: RawSheet, headerRow?: number): void {
  const copy: RawSheet = { ...raw, rows: raw.rows.map((r) => ({ ...r, cells: [...r.cells] })) };
  const arranged = arrangeSheet(copy, headerRow);
  const { layout, rows, totalsRow } = surveyed(raw, headerRow);
  expect(layout.headerRow).toBe(arranged.headerRow);
  expect(layout.headerRowCount).toBe(arranged.headerRowCount);
  expect(layout.headers).toEqual(arranged.headers);
  expect(layout.skippedBlankRows).toBe(arranged.skippedBlankRows);
  expect(rows).toEqual(arranged.rows);
  expect(totalsRow?.rowNumber).toBe(arranged.totalsRow?.rowNumber);
  expect(layout.samples).toEqual(arranged.rows.slice(0, 2_000));
  if (layout.totals?.decided !== false) expect(layout.warnings).toEqual(arranged.warnings);
}

function dataRows(count: number, from: number, extra: (i: number) => string[] = () => []): SheetRow[] {
  return Array.from({ length: count }, (_, i) => ({
    rowNumber: from + i * (i % 7 === 3 ? 2 : 1) + Math.floor(i / 7),
    cells: [`840-${String(100000000 + i)}`, String((i % 50) + 1), `d${i}@x.example`, ...extra(i)],
  }));
}

const raw = (rows: SheetRow[], merges: MergedRange[] = []): RawSheet => ({ rows, merges, warnings: [] });

describe('SheetSurvey', () => {
  it('finds the layout arrangeSheet finds, below title rows, with blank rows between', () => {
    const rows = [
      { rowNumber: 1, cells: ['Acme gifts, November'] },
      { rowNumber: 3, cells: ['Charity ID', 'Amount', 'Email'] },
      ...dataRows(40, 4),
    ];
    compare(raw(rows));
  });

  it('agrees past the rows it keeps, with a wider row deep in the sheet and a labelled totals row', () => {
    const rows = [
      { rowNumber: 1, cells: ['Charity ID', 'Amount', 'Email'] },
      ...dataRows(5_000, 2, (i) => (i === 4_000 ? ['', 'note far right'] : [])),
    ];
    const last = rows[rows.length - 1]!.rowNumber;
    rows.push({ rowNumber: last + 1, cells: ['Total', '999', '', '', '', '', '', '', 'x'] });
    compare(raw(rows));
  });

  it('decides an unlabelled sum below many rows in the pass over them', () => {
    const rows = [{ rowNumber: 1, cells: ['Charity ID', 'Amount', 'Email'] }, ...dataRows(3_000, 2)];
    const sum = rows.slice(1).reduce((s, r) => s + Number(r.cells[1]), 0);
    rows.push({ rowNumber: 9_999, cells: ['', String(sum), ''] });
    compare(raw(rows));
    const notSum = [...rows.slice(0, -1), { rowNumber: 9_999, cells: ['', String(sum + 1), ''] }];
    compare(raw(notSum));
  });

  it('takes a two-row merged header and a header row the caller names', () => {
    const rows = [
      { rowNumber: 1, cells: ['Report'] },
      { rowNumber: 2, cells: ['Charity', '', 'Donor'] },
      { rowNumber: 3, cells: ['ID', 'Amount', 'Email'] },
      ...dataRows(30, 4),
    ];
    const merges = [{ firstRow: 2, lastRow: 2, firstColumn: 0, lastColumn: 1 }];
    compare(raw(rows, merges));
    compare(raw(rows), 3);
  });

  it('refuses an empty sheet and a header row beyond the end as arrangeSheet does', () => {
    expect(() => new SheetSurvey(undefined).finish([])).toThrow(/The sheet is empty/);
    const survey = new SheetSurvey(50);
    survey.add({ rowNumber: 1, cells: ['a', 'b'] });
    expect(() => survey.finish([])).toThrow(/Row 50 is empty or beyond the end of the sheet/);
  });
});
