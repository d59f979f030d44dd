import { describe, expect, it } from 'vitest';
import { hasNamedSheets, sourceFileLabel, workspaceNameFor, uniqueWorkspaceName } from './sourceNames';
import { TEXT_SHEET_NAME } from './readSpreadsheet';

describe('naming a workspace after its file', () => {
  it('names a CSV, TSV or TXT workspace by the file alone: the stand-in sheet name is not in the file', () => {
    for (const format of ['csv', 'tsv', 'txt']) {
      const source = { fileName: `november.${format}`, format, sheet: TEXT_SHEET_NAME };
      expect(workspaceNameFor(source)).toBe('november');
      expect(sourceFileLabel(source)).toBe(`november.${format}`);
      expect(hasNamedSheets(format)).toBe(false);
    }
  });

  it('keeps the sheet of a workbook, which may hold several', () => {
    for (const format of ['xlsx', 'xlsm', 'xls', 'ods']) {
      const source = { fileName: `gifts.${format}`, format, sheet: 'Sheet1' };
      expect(workspaceNameFor(source)).toBe('gifts (Sheet1)');
      expect(sourceFileLabel(source)).toBe(`gifts.${format} · Sheet1`);
    }
    expect(workspaceNameFor({ fileName: 'sample-donations.xlsx', format: 'xlsx', sheet: 'November' })).toBe(
      'sample-donations (November)',
    );
  });

  it('goes by the format the file was read as, not its extension', () => {
    // A CSV saved with an .xls name is read as CSV: it still has no sheet of its own.
    expect(workspaceNameFor({ fileName: 'export.xls', format: 'csv', sheet: TEXT_SHEET_NAME })).toBe(
      'export',
    );
    expect(workspaceNameFor({ fileName: 'gifts', format: 'csv', sheet: TEXT_SHEET_NAME })).toBe('gifts');
    expect(workspaceNameFor({ fileName: '.csv', format: 'csv', sheet: TEXT_SHEET_NAME })).toBe('.csv');
  });
});

describe('a new workspace’s name among the others', () => {
  it('is kept when no other workspace has it, and numbered when one does', () => {
    expect(uniqueWorkspaceName('gifts (November)', ['other'])).toBe('gifts (November)');
    expect(uniqueWorkspaceName('gifts (November)', ['gifts (November)'])).toBe('gifts (November) 2');
    expect(uniqueWorkspaceName('gifts (November)', ['Gifts (November)', 'gifts (November) 2', 'x'])).toBe(
      'gifts (November) 3',
    );
  });
});
