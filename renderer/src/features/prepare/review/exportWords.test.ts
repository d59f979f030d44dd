import { describe, expect, it } from 'vitest';
import { bulkFileExportedWords } from './exportWords';

describe('bulk file exported words', () => {
  it('counts the donations and the rows left out for their errors', () => {
    expect(bulkFileExportedWords(12, 0)).toBe('Bulk file with 12 donations exported.');
    expect(bulkFileExportedWords(1, 1)).toBe(
      'Bulk file with 1 donation exported; 1 row with errors was left out.',
    );
    expect(bulkFileExportedWords(3, 2)).toBe(
      'Bulk file with 3 donations exported; 2 rows with errors were left out.',
    );
  });
});
