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

describe('AcrossRowsState: the usual amount moving', () => {
  const usd = (amount: number, who: string): CheckableDonation => gift(amount, `${who}@x.com`);
  // Rows 8, 9 and 10 (keys 6 to 8) could not be built yet: their amounts do not count.
  const start: (CheckableDonation | undefined)[] = [
    usd(1000, 'a'),
    usd(1000, 'b'),
    usd(1000, 'c'),
    usd(5000, 'd'),
    usd(20_000, 'e'),
    usd(60_000, 'f'),
    undefined,
    undefined,
    undefined,
  ];
  const rowKeys = start.map((_d, i) => i);
  const rowLabels = rowKeys.map((k) => String(k + 2));
  const outliers = (issues: readonly { code: string; row: number }[]) =>
    issues.filter((i) => i.code === 'AMOUNT_UNUSUALLY_HIGH').map((i) => rowLabels[i.row]);

  it('says which untouched rows the fixed rows flagged, and why, on the row and in the reply', () => {
    const state = new AcrossRowsState();
    const first = state.handle({
      type: 'reset',
      id: 1,
      keys: rowKeys,
      labels: rowLabels,
      donations: start,
      ignoreMetadataKeys: ['ddRef'],
    });
    expect(outliers(first.issues)).toEqual(['7']);
    expect(first.moves).toEqual([]);

    const fixed = state.handle({
      type: 'update',
      id: 2,
      changed: [
        [6, usd(1100, 'g')],
        [7, usd(1100, 'h')],
        [8, usd(1100, 'i')],
      ],
    });
    expect(outliers(fixed.issues)).toEqual(['6', '7']);
    expect(fixed.moves).toEqual([
      {
        currency: 'USD',
        before: 3000,
        now: 1100,
        factor: 10,
        more: ['6'],
        fewer: [],
        joined: ['8', '9', '10'],
        left: [],
        amended: [],
      },
    ]);
    const row6 = fixed.issues.find((i) => i.row === 4 && i.code === 'AMOUNT_UNUSUALLY_HIGH');
    expect(row6?.message).toMatch(
      /This row is flagged since rows 8, 9 and 10 count: the usual USD amount moved from \$30\.00 to \$11\.00\.$/,
    );
    // Row 7 was flagged already: its warning stays as it was.
    expect(fixed.issues.find((i) => i.row === 5)?.message).not.toMatch(/flagged since/);

    // An edit that moves nothing says nothing more, and row 6 still says why.
    const calm = state.handle({ type: 'update', id: 3, changed: [[0, usd(1000, 'z')]] });
    expect(calm.moves).toEqual([]);
    expect(calm.issues.find((i) => i.row === 4)?.message).toMatch(/flagged since rows 8, 9 and 10 count/);

    // The row itself corrected: its own change, not a move of the usual amount.
    const own = state.handle({ type: 'update', id: 4, changed: [[4, usd(2000, 'e')]] });
    expect(outliers(own.issues)).toEqual(['7']);
    expect(own.moves).toEqual([]);
  });

  it('says which rows lost the warning when rows no longer count', () => {
    const state = new AcrossRowsState();
    const all = start.map((d, i) => d ?? usd(1100, `n${i}`));
    state.handle({
      type: 'reset',
      id: 1,
      keys: rowKeys,
      labels: rowLabels,
      donations: all,
      ignoreMetadataKeys: [],
    });
    const removed = state.handle({
      type: 'update',
      id: 2,
      keys: rowKeys.slice(0, 6),
      labels: rowLabels.slice(0, 6),
      changed: [],
    });
    expect(removed.moves).toEqual([
      expect.objectContaining({ before: 1100, now: 3000, more: [], fewer: ['6'], left: ['8', '9', '10'] }),
    ]);
  });
});
