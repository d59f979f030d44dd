import type { FileRow } from '../../../../shared/contract';
import { formatMinor, minorToMajorString } from '../../../../shared/amounts';

/**
 * Whether a row of the file matches what the approver typed: every word somewhere in its row
 * number, cause (name or id), donor, amount (as shown or as typed: 999999 or 999,999.00), currency,
 * warnings or who sent it already. Case does not matter.
 */
export function rowMatches(row: FileRow, query: string): boolean {
  const words = query.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [
    String(row.row),
    row.recipientId,
    row.causeName ?? '',
    row.donor,
    formatMinor(row.amount, row.currencyCode),
    minorToMajorString(row.amount, row.currencyCode),
    row.currencyCode,
    ...row.warnings,
    row.sentBy ?? '',
  ]
    .join('\n')
    .toLocaleLowerCase();
  return words.every((w) => text.includes(w));
}
