import { count, plural } from '../../../../shared/i18n';

/** What the service's error file holds, as the repair note needs it. */
export interface RepairIssues {
  /** Each problem's row (null: about the file as a whole) and column (null: the whole donation). */
  issues: Array<{ rowKey: number | null; columnIndex: number | null }>;
  /** Rows of the failed upload that already have a donation. */
  rowsWithDonation: number;
}

/**
 * The note above the grid of a workspace opened to repair a rejected upload: what the service
 * refused and where it is marked, in plain words, and what to do next.
 */
export function repairNoteWords({ issues, rowsWithDonation }: RepairIssues): string {
  const onRows = issues.filter((i) => i.rowKey !== null);
  const onFile = issues.length - onRows.length;
  const rowsMarked = new Set(onRows.map((i) => i.rowKey)).size;
  const wholeDonation = onRows.filter((i) => i.columnIndex === null).length;
  const parts: string[] = [];
  if (onRows.length) {
    parts.push(
      `The service refused this upload: ${count(onRows.length, 'problem')} in ${count(rowsMarked, 'row')} ${plural(onRows.length, { one: 'is', other: 'are' })} marked on ${plural(onRows.length, { one: 'its cell', other: 'their cells' })}` +
        (wholeDonation
          ? ` (${plural(wholeDonation, { one: 'one', other: 'those' })} about a whole donation on the row's recipient cell)`
          : '') +
        (onRows.length > 1 ? '; F8 goes from one to the next.' : '.'),
    );
  }
  if (onFile) {
    parts.push(
      `${onRows.length ? '' : 'The service refused this upload: '}${count(onFile, 'problem')} ${plural(onFile, { one: 'is', other: 'are' })} about the file as a whole, listed below.`,
    );
  }
  if (!issues.length) parts.push('The service refused this upload without naming a row.');
  if (rowsWithDonation) {
    parts.push(
      `${count(rowsWithDonation, 'row')} of that upload already ${plural(rowsWithDonation, { one: 'has', other: 'have' })} a donation and will not be sent again.`,
    );
  }
  parts.push(`Fix ${plural(issues.length, { one: 'it', other: 'them' })}, then choose Send corrected rows.`);
  return parts.join(' ');
}
