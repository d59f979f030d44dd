import type { CellIssueView } from '../../../components/grid/gridTypes';
import { count } from '../../../../../shared/i18n';

/** One cell's edit, as it is to be announced once the row has been checked again. */
export interface EditedCell {
  key: number;
  column: number;
  rowNumber: number | null;
  header: string;
  /** The cell's problems before the edit. */
  before: readonly CellIssueView[] | undefined;
}

const messages = (issues: readonly CellIssueView[]) =>
  issues
    .map((i) => i.message.trim())
    .join(' ')
    .replace(/\.$/, '');

/** How many rows still stop the upload, in words. */
export function invalidRowsWords(invalid: number, left = false): string {
  if (invalid === 0) return 'no rows left with errors';
  return `${count(invalid, 'row')} ${left ? 'left ' : ''}with errors`;
}

/**
 * What an edit did to the cell the person edited, and how many rows still have errors:
 * "Row 14, Employee email: still invalid — The e-mail has no domain; 3 rows with errors" or
 * "Row 14, Employee email: fixed; 2 rows left with errors". Said of the edited cell, not of the
 * cell the grid moved on to.
 */
export function editResultWords(
  edit: Pick<EditedCell, 'rowNumber' | 'header' | 'before'>,
  after: readonly CellIssueView[] | undefined,
  invalidRows: number,
): string {
  const where = `Row ${edit.rowNumber ?? '(new)'}, ${edit.header}`;
  const errorsAfter = (after ?? []).filter((i) => i.severity === 'error');
  const warningsAfter = (after ?? []).filter((i) => i.severity === 'warning');
  const hadError = (edit.before ?? []).some((i) => i.severity === 'error');
  let what: string;
  if (errorsAfter.length) what = `${hadError ? 'still invalid' : 'invalid'} — ${messages(errorsAfter)}`;
  else if (hadError)
    what = warningsAfter.length ? `fixed, with a warning — ${messages(warningsAfter)}` : 'fixed';
  else if (warningsAfter.length) what = `warning — ${messages(warningsAfter)}`;
  else what = 'no problems';
  return `${where}: ${what}; ${invalidRowsWords(invalidRows, hadError && !errorsAfter.length)}.`;
}
