import { describe, expect, it } from 'vitest';
import { emptyDigests, setDigest, type CheckableDonation } from '../../../../../shared/donation';
import { AcrossRowsState } from './acrossRowsState';

const gift = (amount: number, email: string, extra: Record<string, string> = {}): CheckableDonation => ({
  destination: { recipientId: '840-123456789' },
  funds: { amount, currencyCode: 'USD' },
  donor: { email },
  metadata: { ddRef: `w:${email}:${amount}`, ...extra },
});

const donations: CheckableDonation[] = [
  gift(100, 'a@x.com'),
  gift(100, 'a@x.com'),
  gift(100, 'a@x.com', { note: 'other' }),
  gift(200, 'b@x.com'),
  gift(900, 'c@x.com'),
  gift(950, 'd@x.com'),
  gift(99_000, 'e@x.com'),
];
const keys = donations.map((_d, i) => i);
const labels = keys.map((k) => String(k + 2));

function both() {
  const full = new AcrossRowsState();
  full.reset(keys, labels, donations, ['ddRef']);
  let asked = 0;
  const digests = emptyDigests();
  donations.forEach((d, key) => setDigest(digests, key, d));
  const byDigest = new AcrossRowsState((key) => {
    asked++;
    return donations[key];
  });
  byDigest.resetFromDigests(keys, labels, digests, ['ddRef']);
  return { full, byDigest, asked: () => asked };
}

describe('AcrossRowsState from digests', () => {
  it('finds what it finds with every donation, asking only for rows whose digests match', () => {
    const { full, byDigest, asked } = both();
    const issues = byDigest.check();
    expect(issues).toEqual(full.check());
    expect(issues.map((i) => i.code)).toEqual([
      'DUPLICATE_ROW',
      'DUPLICATE_DONOR_GIFT',
      'AMOUNT_UNUSUALLY_HIGH',
    ]);
    expect(asked()).toBe(3);
  });

  it('stays the same through changed, added and reordered rows', () => {
    const { full, byDigest } = both();
    const update = {
      type: 'update' as const,
      id: 2,
      keys: [7, 6, 5, 4, 3, 2, 1, 0],
      labels: ['new 1', '8', '7', '6', '5', '4', '3', '2'],
      changed: [
        [1, gift(101, 'a@x.com')],
        [7, gift(200, 'b@x.com')],
      ] as [number, CheckableDonation][],
    };
    const fromFull = full.handle(update);
    const fromDigests = byDigest.handle(update);
    expect(fromDigests).toEqual(fromFull);
    // The added row (key 7, first now) repeats row key 3; the moved copies of row key 0 still match.
    expect(fromDigests.issues.map((i) => [i.code, i.row, i.relatedRow])).toEqual([
      ['AMOUNT_UNUSUALLY_HIGH', 1, undefined],
      ['DUPLICATE_ROW', 4, 0],
      ['DUPLICATE_DONOR_GIFT', 7, 5],
    ]);
  });
});
