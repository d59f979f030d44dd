import { describe, expect, it } from 'vitest';
import { checkFile, type CheckableDonation } from './fileChecks';
import { fingerprintDonation } from './fingerprint';
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
    const issues = checkFile(rows, { locale: 'en-US' });
    expect(issues).toEqual([
      expect.objectContaining({ row: 4, code: 'AMOUNT_UNUSUALLY_HIGH', field: 'funds.amount' }),
    ]);
    // Amounts as people write them, as everywhere else in the app; not the raw "1000.00 USD".
    expect(issues[0]?.message).toBe(
      "Amount $1,000.00 in row 5 is at least 10 times this file's usual USD amount ($11.00). Check for a missing decimal point.",
    );
    expect(checkFile(rows, { locale: 'de-DE' })[0]?.message).toMatch(/^Amount 1\.000,00\s\$ in row 5/);
  });

  it('writes each currency with its own digits in the warning', () => {
    const yen = (amount: number, email: string) => {
      const g = gift(amount, email);
      return { ...g, funds: { ...g.funds, currencyCode: 'JPY' } };
    };
    const rows = ['a', 'b', 'c', 'd'].map((n) => yen(1250, `${n}@x.com`)).concat(yen(125000, 'e@x.com'));
    expect(checkFile(rows, { locale: 'en-US' })[0]?.message).toMatch(
      /^Amount ¥125,000 in row 5 .* \(¥1,250\)\./,
    );
  });

  it('does not judge "usual" from too few rows', () => {
    const usuals = new Map<string, number>();
    expect(checkFile([gift(100, 'a@x.com'), gift(100000, 'b@x.com')], { usuals })).toEqual([]);
    expect(usuals.size).toBe(0);
  });

  it('says the usual amount of each currency it judged, for saying why it moved', () => {
    const usuals = new Map<string, number>();
    const rows = [900, 1000, 1100, 1200, 100000].map((amount, i) => gift(amount, `${i}@x.com`));
    checkFile(rows, { usuals });
    expect([...usuals]).toEqual([['USD', 1100]]);
  });

  it('skips rows that could not be built', () => {
    expect(checkFile([undefined, gift(100), undefined])).toEqual([]);
  });
});

/** The first way checkFile was written (a fingerprint of every row), kept to hold the fast one to it. */
function referenceDuplicates(rows: (CheckableDonation | undefined)[], ignoreMetadataKeys: string[]) {
  const out: [number, number, string][] = [];
  const byPrint = new Map<string, number>();
  const byGift = new Map<string, number>();
  rows.forEach((row, index) => {
    if (!row) return;
    const print = fingerprintDonation(row, { ignoreMetadataKeys });
    const same = byPrint.get(print);
    if (same !== undefined) out.push([index, same, 'DUPLICATE_ROW']);
    else byPrint.set(print, index);
    const email = row.donor?.email;
    const name = row.donor?.fullName;
    const donor =
      typeof email === 'string' && email !== ''
        ? `e:${email.trim().toLowerCase()}`
        : typeof name === 'string' && name !== ''
          ? `n:${name.trim().toLowerCase().replace(/\s+/g, ' ')}`
          : undefined;
    const { amount, currencyCode } = row.funds ?? {};
    const recipient = row.destination?.recipientId;
    if (same === undefined && donor && typeof recipient === 'string' && typeof amount === 'number') {
      const key = `${donor}\u0000${recipient}\u0000${String(currencyCode)}\u0000${amount}`;
      const earlier = byGift.get(key);
      if (earlier !== undefined) out.push([index, earlier, 'DUPLICATE_DONOR_GIFT']);
      else byGift.set(key, index);
    }
  });
  return out;
}

describe('checkFile duplicates, against a fingerprint of every row', () => {
  it('finds the same identical rows and repeated gifts in a file full of near-copies', () => {
    let state = 7;
    const next = (n: number) => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state % n;
    };
    const rows: (CheckableDonation | undefined)[] = Array.from({ length: 3000 }, (_, i) => {
      if (next(40) === 0) return undefined;
      const donor = [{ email: 'A@x.com' }, { email: 'a@x.com ' }, { fullName: 'Ann  Lee' }, {}][next(4)];
      return {
        destination: { recipientId: ['840-1', '840-2', 5][next(3)] },
        funds: { amount: [100, 200, '100'][next(3)], currencyCode: ['USD', 'EUR', undefined][next(3)] },
        ...(donor ? { donor } : {}),
        metadata: { ddRef: `w:${i}`, ...(next(3) === 0 ? { note: String(next(2)) } : {}) },
      };
    });
    const found = checkFile(rows, { ignoreMetadataKeys: ['ddRef'] })
      .filter((i) => i.code !== 'AMOUNT_UNUSUALLY_HIGH')
      .map((i) => [i.row, i.relatedRow, i.code]);
    const expected = referenceDuplicates(rows, ['ddRef']);
    expect(expected.filter(([, , code]) => code === 'DUPLICATE_ROW').length).toBeGreaterThan(100);
    expect(expected.filter(([, , code]) => code === 'DUPLICATE_DONOR_GIFT').length).toBeGreaterThan(20);
    expect(found).toEqual(expected);
  });
});
