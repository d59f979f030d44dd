import { describe, expect, it } from 'vitest';
import { checkFile } from './fileChecks';
import { validDonation } from './testFixtures';

const gift = (
  amount: number,
  email = 'a@example.com',
  recipientId = '840-1',
  extra: Record<string, string> = {},
) =>
  validDonation({
    destination: { recipientId },
    funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount, source: 'COMPANY' },
    donor: { fullName: 'A', email },
    metadata: extra,
  });

describe('checkFile', () => {
  it('flags identical rows, pointing at the first', () => {
    const issues = checkFile([gift(100), gift(200, 'b@example.com'), gift(100)], {
      rowLabel: (i) => String(i + 2),
    });
    expect(issues).toEqual([
      expect.objectContaining({
        row: 2,
        relatedRow: 0,
        code: 'DUPLICATE_ROW',
        severity: 'warning',
        field: '',
      }),
    ]);
    expect(issues[0]?.message).toBe(
      'Row 4 is identical to row 2. Keep both only if both gifts are meant; otherwise delete one.',
    );
  });

  it('treats rows that differ only in the reference key as identical', () => {
    const issues = checkFile(
      [gift(100, 'a@x.com', '840-1', { ddRef: 'w:2' }), gift(100, 'a@x.com', '840-1', { ddRef: 'w:3' })],
      {
        ignoreMetadataKeys: ['ddRef'],
      },
    );
    expect(issues.map((i) => i.code)).toEqual(['DUPLICATE_ROW']);
  });

  it('flags the same donor, recipient and amount twice when other details differ', () => {
    const issues = checkFile([
      gift(100, 'A@Example.com', '840-1', { n: '1' }),
      gift(100, 'a@example.com', '840-1', { n: '2' }),
    ]);
    expect(issues).toEqual([
      expect.objectContaining({ row: 1, relatedRow: 0, code: 'DUPLICATE_DONOR_GIFT', field: 'funds.amount' }),
    ]);
  });

  it('does not flag different recipients or amounts', () => {
    expect(checkFile([gift(100), gift(100, 'a@example.com', '840-2'), gift(101)])).toEqual([]);
  });

  it('flags amounts at least 10× the median of their currency', () => {
    const rows = [
      gift(1000, 'a@x.com'),
      gift(1200, 'b@x.com'),
      gift(900, 'c@x.com'),
      gift(1100, 'd@x.com'),
      gift(100000, 'e@x.com'),
    ];
    const issues = checkFile(rows);
    expect(issues).toEqual([
      expect.objectContaining({ row: 4, code: 'AMOUNT_UNUSUALLY_HIGH', field: 'funds.amount' }),
    ]);
    expect(issues[0]?.message).toContain('1000.00 USD');
  });

  it('does not judge "usual" from too few rows', () => {
    expect(checkFile([gift(100, 'a@x.com'), gift(100000, 'b@x.com')])).toEqual([]);
  });

  it('skips rows that could not be built', () => {
    expect(checkFile([undefined, gift(100), undefined])).toEqual([]);
  });
});
