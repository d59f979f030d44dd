import { describe, expect, it } from 'vitest';
import { editResultWords, invalidRowsWords } from './editWords';

const error = (message: string) => ({ severity: 'error' as const, message });
const warning = (message: string) => ({ severity: 'warning' as const, message });
const cell = { rowNumber: 14, header: 'Employee email' };

describe('editResultWords', () => {
  it('says a cell that is still wrong is still invalid, and why', () => {
    expect(
      editResultWords({ ...cell, before: [error('No domain.')] }, [error('The e-mail has no domain.')], 3),
    ).toBe('Row 14, Employee email: still invalid — The e-mail has no domain; 3 rows with errors.');
  });

  it('says a fixed cell is fixed, with the rows left', () => {
    expect(editResultWords({ ...cell, before: [error('No domain.')] }, undefined, 2)).toBe(
      'Row 14, Employee email: fixed; 2 rows left with errors.',
    );
    expect(editResultWords({ ...cell, before: [error('No domain.')] }, [], 0)).toBe(
      'Row 14, Employee email: fixed; no rows left with errors.',
    );
  });

  it('says a good cell made wrong is invalid, and a warning is a warning', () => {
    expect(editResultWords({ ...cell, before: undefined }, [error('Not an e-mail.')], 1)).toBe(
      'Row 14, Employee email: invalid — Not an e-mail; 1 row with errors.',
    );
    expect(editResultWords({ ...cell, before: undefined }, [warning('Spaces around.')], 1)).toBe(
      'Row 14, Employee email: warning — Spaces around; 1 row with errors.',
    );
    expect(editResultWords({ ...cell, rowNumber: null, before: undefined }, undefined, 1)).toBe(
      'Row (new), Employee email: no problems; 1 row with errors.',
    );
  });

  it('counts the rows with errors', () => {
    expect(invalidRowsWords(0)).toBe('no rows left with errors');
    expect(invalidRowsWords(1)).toBe('1 row with errors');
    expect(invalidRowsWords(2, true)).toBe('2 rows left with errors');
  });
});
