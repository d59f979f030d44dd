import { describe, expect, it } from 'vitest';
import {
  checkRow,
  makeRowChecker,
  workspaceMappingSchema,
  type CheckableRow,
} from '../../../../../shared/workspace';
import { RowResults } from './rowResults';
import { seedRows } from './rowSeed';

const headers = ['Charity ID', 'Gift amount', 'Currency', 'Employee email'];
const mapping = workspaceMappingSchema.parse({
  template: {
    columns: {
      'Charity ID': 'recipientId',
      'Gift amount': 'amount',
      Currency: 'currencyCode',
      'Employee email': 'donor.email',
    },
  },
});
const cells: string[][] = [
  ['840-123456789', '25.00', 'USD', 'ana@acme.example'],
  ['840-123456789', '10.005', 'USD', 'ben@acme.example'],
  ['840-111111111', ' 12 ', 'EUR', 'cy@acme.example'],
  ['840-111111111', '5', 'EUR', 'not-an-email'],
  ['840-222222222', '1000', 'JPY', ''],
  ['840-123456789', '7.5', 'USD', 'dee@acme.example'],
];
const rows: CheckableRow[] = cells.map((c, key) => ({ key, rowNumber: key + 2, cells: c }));
const checker = makeRowChecker('0f8fad5b-d9cb-469f-a165-70867728950e', headers, mapping, rows);

/** The same rows checked one by one on this thread: what the seeded results must always equal. */
function checkedHere(current: readonly CheckableRow[]): RowResults {
  const results = new RowResults();
  for (const row of current) results.set(row.key, checkRow(checker, row));
  return results;
}

/** Figures in a fixed order: ties keep the order of the edits, which differs between the two. */
function sameFigures(a: RowResults, b: RowResults) {
  const byCode = (list: { currencyCode: string }[]) =>
    [...list].sort((x, y) => x.currencyCode.localeCompare(y.currencyCode));
  const byRecipient = (list: { recipientId: string; currencyCode: string }[]) =>
    [...list].sort((x, y) =>
      `${x.recipientId}|${x.currencyCode}`.localeCompare(`${y.recipientId}|${y.currencyCode}`),
    );
  expect(a.counts()).toEqual(b.counts());
  expect(byCode(a.currencyTotals())).toEqual(byCode(b.currencyTotals()));
  expect(byRecipient(a.largestRecipients(100))).toEqual(byRecipient(b.largestRecipients(100)));
}

describe('RowResults from a seed (rows checked in the import worker)', () => {
  it('has the same counts, totals and largest recipients as checking every row here', () => {
    const { seed } = seedRows(checker, rows);
    const current = [...rows];
    const seeded = RowResults.fromSeed(seed, {
      rowOf: (key) => current.find((r) => r.key === key),
      check: (row) => checkRow(checker, row),
    });
    sameFigures(seeded, checkedHere(current));
    expect(seeded.counts()).toEqual({ rows: 6, valid: 4, invalid: 2, warnings: 1 });
    expect(seeded.counts([0, 1, 99]).warnings).toBe(3);
  });

  it('works out a seeded row in full only when asked, and again when the row has changed', () => {
    const { seed } = seedRows(checker, rows);
    const current = [...rows];
    let checks = 0;
    const seeded = RowResults.fromSeed(seed, {
      rowOf: (key) => current.find((r) => r.key === key),
      check: (row) => {
        checks++;
        return checkRow(checker, row);
      },
    });
    expect(seeded.isValid(1)).toBe(false);
    expect(seeded.isValid(0)).toBe(true);
    expect(checks).toBe(0);
    expect(seeded.get(1)).toEqual(checkRow(checker, rows[1]!));
    seeded.get(1);
    expect(checks).toBe(1);
    current[1] = { ...rows[1]!, cells: ['840-123456789', '10.01', 'USD', 'ben@acme.example'] };
    expect(seeded.get(1)?.ok).toBe(true);
    expect(checks).toBe(2);
  });

  it('keeps the figures right through edits, removals and rows added later', () => {
    const { seed } = seedRows(checker, rows);
    let current = [...rows];
    const seeded = RowResults.fromSeed(seed, {
      rowOf: (key) => current.find((r) => r.key === key),
      check: (row) => checkRow(checker, row),
    });
    const change = (key: number, next: string[]) => {
      current = current.map((r) => (r.key === key ? { ...r, cells: next } : r));
      seeded.set(
        key,
        checkRow(
          checker,
          current.find((r) => r.key === key)!,
        ),
      );
    };
    change(1, ['840-123456789', '10.01', 'USD', 'ben@acme.example']);
    change(0, ['840-999999999', '2500', 'USD', 'ana@acme.example']);
    change(0, ['840-999999999', '', 'USD', 'ana@acme.example']);
    change(2, ['840-111111111', '12', 'EUR', 'cy@acme.example']);
    sameFigures(seeded, checkedHere(current));
    current = current.filter((r) => r.key !== 4 && r.key !== 0);
    seeded.remove(4);
    seeded.remove(0);
    const added = { key: 6, rowNumber: null, cells: ['840-555555555', '3', 'USD', ''] };
    current.push(added);
    seeded.set(6, checkRow(checker, added));
    sameFigures(seeded, checkedHere(current));
    expect(seeded.has(4)).toBe(false);
    expect(seeded.get(4)).toBeUndefined();
    expect(seeded.size).toBe(5);
  });
});
