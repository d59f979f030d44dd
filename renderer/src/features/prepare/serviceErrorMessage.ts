import type { UploadIssue } from '../../../../shared/contract/uploadChannels';

/**
 * What a person reads on the cell for one of the service's problems: what was refused and what to
 * do. A problem about an attribute no column holds, or about the whole donation, has no cell of its
 * own; the grid shows it on the row's recipient cell, and the words say so.
 */
export function serviceErrorMessage(
  issue: Pick<UploadIssue, 'rowKey' | 'columnIndex' | 'field' | 'code' | 'title' | 'detail'>,
): string {
  const what = `${issue.title}${issue.detail ? `. ${issue.detail}` : ''}`;
  if (issue.rowKey === null || issue.columnIndex !== null) return `The service refused this: ${what}`;
  if (issue.field) {
    return `The service refused ${issue.field}, which no column of this sheet holds (a value the mapping adds to every row): ${what} Check it with Change mapping.`;
  }
  const again = /EXTRACTION/.test(issue.code)
    ? ' Nothing in the row needs changing: Send corrected rows sends it again in a new file.'
    : '';
  return `The service refused this donation as a whole: ${what}${again}`;
}
