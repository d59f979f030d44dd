import { describe, expect, it } from 'vitest';
import type { MappedIssue } from '../../../../../shared/mapping';
import { issuesInColumn, nextProblem, rowLevelIssues } from './cellIssues';

const checks: MappedIssue[] = [
  {
    severity: 'error',
    field: 'funds.amount',
    code: 'REQUIRED',
    message: 'Amount is missing.',
    columnIndex: 1,
  },
  { severity: 'warning', field: 'funds.amount', code: 'LARGE', message: 'A large amount.', columnIndex: 1 },
  { severity: 'error', field: 'funds.currencyCode', code: 'UNMAPPED', message: 'No column is the currency.' },
];
const fileIssues: MappedIssue[] = [
  { severity: 'warning', field: '', code: 'DUPLICATE', message: 'Same as row 3.', columnIndex: 0 },
];
const service = [
  { rowKey: 1, columnIndex: 2, message: 'Refused here.', value: 'x' },
  { rowKey: 1, columnIndex: null, message: 'Refused as a whole.', value: null },
];

describe('issues on the grid', () => {
  it("puts the app's checks, the file's and the service's errors on their cells", () => {
    expect(issuesInColumn(1, checks, fileIssues, service, 0)).toEqual([
      { severity: 'error', message: 'Amount is missing.' },
      { severity: 'warning', message: 'A large amount.' },
    ]);
    expect(issuesInColumn(0, checks, fileIssues, service, 0)).toEqual([
      { severity: 'warning', message: 'Same as row 3.' },
      { severity: 'error', message: 'Refused as a whole.' },
    ]);
    expect(issuesInColumn(2, checks, fileIssues, service, 0)).toEqual([
      { severity: 'error', message: 'Refused here.' },
    ]);
    expect(issuesInColumn(3, undefined, undefined, [], 0)).toBeUndefined();
  });

  it('lists the problems that belong to no column under the grid', () => {
    expect(rowLevelIssues(checks, fileIssues, service)).toEqual([
      checks[2],
      { severity: 'error', code: 'SERVICE', message: 'Refused as a whole.' },
    ]);
    expect(rowLevelIssues(undefined, undefined, [])).toEqual([]);
  });
});

describe('the next problem (F8)', () => {
  const rows = [{ key: 10 }, { key: 11 }, { key: 12 }, { key: 13 }];
  const look = (errors: number[], warnings: number[]) => ({
    hasError: (key: number) => errors.includes(key),
    hasWarning: (key: number) => warnings.includes(key),
    columnOf: (key: number, severity: 'error' | 'warning') => (severity === 'error' ? key - 10 : 9),
  });

  it('goes to the next row with an error, round the end, in either direction', () => {
    expect(nextProblem(rows, 1, 1, look([10, 12], [11]))).toEqual({ index: 2, column: 2, severity: 'error' });
    expect(nextProblem(rows, 2, 1, look([10, 12], []))).toEqual({ index: 0, column: 0, severity: 'error' });
    expect(nextProblem(rows, 0, -1, look([10, 12], []))).toEqual({ index: 2, column: 2, severity: 'error' });
    expect(nextProblem(rows, 2, 1, look([12], []))?.index).toBe(2);
  });

  it('goes through the warnings once no error is left, and finds nothing when all is well', () => {
    expect(nextProblem(rows, 0, 1, look([], [13]))).toEqual({ index: 3, column: 9, severity: 'warning' });
    expect(nextProblem(rows, 0, 1, look([], []))).toBeNull();
    expect(nextProblem([], 0, 1, look([10], []))).toBeNull();
  });
});
