import { describe, expect, it } from 'vitest';
import { serviceErrorsFrom, stillApplying } from './serviceErrors';

const issue = {
  rowKey: 1,
  columnIndex: 0,
  field: 'destination.recipientId',
  code: 'RECIPIENT_NOT_FOUND',
  title: 'Recipient not found',
  detail: 'No cause has that id.',
};

describe('service errors on the grid', () => {
  it('keeps the value each refused cell has, and none for a row or the file', () => {
    const rows = [{ key: 1, cells: ['840-1', '25'] }];
    const errors = serviceErrorsFrom(
      [issue, { ...issue, columnIndex: null, code: 'EXTRACTION_FAILED' }, { ...issue, rowKey: null }],
      rows,
    );
    expect(errors.map((e) => [e.rowKey, e.columnIndex, e.value])).toEqual([
      [1, 0, '840-1'],
      [1, null, null],
      [null, 0, null],
    ]);
    expect(errors[0]?.message).toContain('No cause has that id.');
    expect(serviceErrorsFrom([{ ...issue, rowKey: 9 }], rows)[0]?.value).toBe('');
  });

  it('applies to a row while its refused cell is unchanged; an error on the whole row always applies', () => {
    const errors = [
      { rowKey: 1, columnIndex: 0, message: 'cell', value: '840-1' },
      { rowKey: 1, columnIndex: null, message: 'row', value: null },
      { rowKey: 2, columnIndex: 0, message: 'other row', value: 'x' },
    ];
    expect(stillApplying(errors, 1, { cells: ['840-1'] }).map((e) => e.message)).toEqual(['cell', 'row']);
    expect(stillApplying(errors, 1, { cells: ['840-2'] }).map((e) => e.message)).toEqual(['row']);
    expect(stillApplying(errors, 3, undefined)).toEqual([]);
  });
});
