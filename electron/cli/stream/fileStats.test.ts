import { describe, expect, it } from 'vitest';
import {
  checkRow,
  checkWorkspace,
  makeRowChecker,
  placeFileIssue,
  workspaceMappingSchema,
} from '../../../shared/workspace';
import { FileStats } from './fileStats';

const headers = ['Charity ID', 'Amount', 'Currency', 'Email', 'Name', 'Note'];
const RECIPIENTS = ['840-123456789', '840-987654321', '826-1234567'];

/** Rows with invalid cells, identical copies, the same gift twice with another note, and outliers. */
function rows(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const base = i % 37 === 5 ? i - 3 : i; // every 37th row repeats an earlier one
    const amount = base % 41 === 7 ? '99999' : base % 29 === 3 ? 'x' : `${(base % 20) + 1}.50`;
    const email = base % 31 === 2 ? '' : `p${base % 90}@acme.example`;
    const note = i % 37 === 5 && i % 2 === 0 ? `other ${i}` : `n${base}`;
    return {
      key: i + 1,
      rowNumber: i * 2 + 3,
      cells: [
        RECIPIENTS[base % 3]!,
        amount,
        base % 11 === 0 ? 'EUR' : 'USD',
        email,
        `Name ${base % 90}`,
        note,
      ],
    };
  });
}

describe('FileStats', () => {
  it.each([true, false])(
    'finds what the app’s checks find, in the same words (row reference %s)',
    (reference) => {
      const mapping = workspaceMappingSchema.parse({
        template: {
          columns: {
            'Charity ID': 'recipientId',
            Amount: 'amount',
            Currency: 'currencyCode',
            Email: 'donor.email',
            Name: 'donor.fullName',
            Note: 'metadata.note',
          },
        },
        numberStyle: 'auto',
        reference: { enabled: reference, key: 'ddRef' },
      });
      const sheet = rows(3_000);
      const id = '00000000-0000-4000-8000-000000000000';
      const app = checkWorkspace(id, headers, mapping, sheet);
      const checker = makeRowChecker(id, headers, mapping, sheet);
      const stats = new FileStats(sheet.length, checker.referenceKey ? [checker.referenceKey] : []);
      sheet.forEach((row, i) => stats.add(i, row.rowNumber, checkRow(checker, row)));
      stats.finish();
      const codes = new Set<string>();
      sheet.forEach((_, i) => {
        const mine = stats.issuesOf(i).map((issue) => placeFileIssue(checker, issue));
        expect(mine).toEqual(app.fileIssues.get(i) ?? []);
        for (const issue of mine) codes.add(issue.code);
      });
      expect([...codes].sort()).toEqual(['AMOUNT_UNUSUALLY_HIGH', 'DUPLICATE_DONOR_GIFT', 'DUPLICATE_ROW']);
      expect(stats.counts()).toEqual(app.counts);
      expect(stats.totals()).toEqual(app.totals);
      expect(stats.invalidRows()).toEqual(
        sheet.filter((_, i) => !app.results[i]!.ok).map((r) => r.rowNumber),
      );
    },
  );
});
