import type { UploadIssue } from '../../../../shared/contract/uploadChannels';
import { fieldLabel } from '../../../../shared/donation';
import { codeWord, hasCodeWord } from '../../../../shared/i18n';

/**
 * What a person reads on the cell for one of the service's problems: what was refused and what to
 * do. The app's own words for the code come first (the service's title only for a code the app has
 * no words for), then the service's detail, which names the value. A problem about an attribute no
 * column holds, or about the whole donation, has no cell of its own; the grid shows it on the row's
 * recipient cell, and the words say so.
 */
export function serviceErrorMessage(
  issue: Pick<UploadIssue, 'rowKey' | 'columnIndex' | 'field' | 'code' | 'title' | 'detail'>,
): string {
  const word = hasCodeWord(issue.code) ? codeWord(issue.code) : issue.title || codeWord(issue.code);
  const what = `${word.replace(/\.$/, '')}.${issue.detail ? ` ${issue.detail}` : ''}`;
  if (issue.rowKey === null || issue.columnIndex !== null) return `The service refused this: ${what}`;
  if (issue.field) {
    return `The service refused ${fieldLabel(issue.field)}, which no column of this sheet holds (a value the mapping adds to every row): ${what} Check it with Change mapping.`;
  }
  const again = /EXTRACTION/.test(issue.code)
    ? ' Nothing in the row needs changing: Send corrected rows sends it again in a new file.'
    : '';
  return `The service refused this donation as a whole: ${what}${again}`;
}
