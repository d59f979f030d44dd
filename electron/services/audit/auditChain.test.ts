import { describe, expect, it } from 'vitest';
import {
  BROKEN,
  canonicalText,
  ChainWalk,
  entryHash,
  verifyChain,
  type ChainHead,
  type ChainRow,
  type SealedRow,
} from './auditChain';

const content = (seq: number, over: Partial<ChainRow> = {}): ChainRow => ({
  seq,
  at: `2026-11-03T14:${String(seq % 60).padStart(2, '0')}:00.000Z`,
  person: 'ana',
  computer: 'LAPTOP-1',
  environment: 'offline',
  action: 'edit',
  workspace_id: 'ws-1',
  upload_id: null,
  donation_id: null,
  details: JSON.stringify({ version: seq }),
  ...over,
});

/** A trail of n entries chained as the store writes them, with where the app ended it. */
function trail(n: number): { rows: SealedRow[]; head: ChainHead } {
  const rows: SealedRow[] = [];
  let previous: string | null = null;
  for (let seq = 1; seq <= n; seq++) {
    const row = content(seq);
    const hash = entryHash(row, previous);
    rows.push({ ...row, hash });
    previous = hash;
  }
  return { rows, head: { lastSeq: n, lastHash: previous } };
}

describe('an entry’s hash', () => {
  it('covers every column and the previous hash, and is the same text on every computer', () => {
    const row = content(7);
    const hash = entryHash(row, 'a'.repeat(64));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(entryHash({ ...row }, 'a'.repeat(64))).toBe(hash);
    expect(entryHash(row, 'b'.repeat(64))).not.toBe(hash);
    expect(entryHash(row, null)).not.toBe(hash);
    for (const [key, value] of Object.entries({
      seq: 8,
      at: '2020-01-01T00:00:00.000Z',
      person: 'bob',
      computer: 'bob-laptop',
      environment: 'production',
      action: 'upload',
      workspace_id: null,
      upload_id: 'u-1',
      donation_id: 'd-1',
      details: '{"version":8}',
    })) {
      expect(entryHash({ ...row, [key]: value }, 'a'.repeat(64)), key).not.toBe(hash);
    }
    // A value cannot slide from one column into the next: each is its own JSON string.
    expect(canonicalText(content(1, { person: 'an', computer: 'aLAPTOP-1' }), null)).not.toBe(
      canonicalText(content(1), null),
    );
  });
});

describe('checking a trail', () => {
  it('finds an untouched trail whole, and an empty one too', () => {
    const { rows, head } = trail(50);
    expect(verifyChain(rows, head)).toEqual({ trail: 'folder', whole: true, entries: 50 });
    expect(verifyChain([], { lastSeq: 0, lastHash: null })).toEqual({
      trail: 'folder',
      whole: true,
      entries: 0,
    });
  });

  it('names an entry whose content was changed', () => {
    const { rows, head } = trail(10);
    rows[3] = { ...rows[3]!, details: JSON.stringify({ version: 4, amount: '999999.00' }) };
    expect(verifyChain(rows, head)).toEqual({
      trail: 'folder',
      whole: false,
      entries: 10,
      firstBroken: { seq: 4, at: rows[3]!.at, reason: BROKEN.changed },
    });
  });

  it('names the last entry when it was changed, hash and all', () => {
    const { rows, head } = trail(5);
    const forged = content(5, { person: 'mallory' });
    rows[4] = { ...forged, hash: entryHash(forged, rows[3]!.hash) };
    expect(verifyChain(rows, head).firstBroken).toEqual({
      seq: 5,
      at: rows[4]!.at,
      reason: BROKEN.movedOrChanged,
    });
    // Changed without a new hash: the hash still is the app's, so only the content changed.
    const plain = trail(5);
    plain.rows[4] = { ...plain.rows[4]!, person: 'mallory' };
    expect(verifyChain(plain.rows, plain.head).firstBroken?.reason).toBe(BROKEN.changed);
  });

  it('names a removed entry, and a run of them', () => {
    const { rows, head } = trail(10);
    expect(verifyChain([...rows.slice(0, 4), ...rows.slice(5)], head).firstBroken).toEqual({
      seq: 5,
      reason: BROKEN.removed(5, 5),
    });
    expect(verifyChain([...rows.slice(0, 4), ...rows.slice(7)], head).firstBroken).toEqual({
      seq: 5,
      reason: BROKEN.removed(5, 7),
    });
    expect(verifyChain(rows.slice(2), head).firstBroken?.seq).toBe(1);
  });

  it('names entries removed from the end, by the record of where the app ended the chain', () => {
    const { rows, head } = trail(10);
    expect(verifyChain(rows.slice(0, 8), head).firstBroken).toEqual({
      seq: 9,
      reason: BROKEN.removedAtEnd(10),
    });
    expect(verifyChain(rows, null).firstBroken).toEqual({ seq: 10, reason: BROKEN.noEnd });
  });

  it('names an entry added from outside the app, with no hash, a wrong one or even a right one', () => {
    const { rows, head } = trail(6);
    const forged = content(7, { action: 'approve', at: '2020-01-01T00:00:00.000Z', computer: 'bob-laptop' });
    const expected = { seq: 7, at: forged.at, reason: BROKEN.added };
    expect(verifyChain([...rows, { ...forged, hash: null }], head).firstBroken).toEqual(expected);
    expect(verifyChain([...rows, { ...forged, hash: 'f'.repeat(64) }], head).firstBroken).toEqual(expected);
    // Chained as the app would: only the record of the chain's end shows it was not the app.
    const linked = { ...forged, hash: entryHash(forged, rows[5]!.hash) };
    expect(verifyChain([...rows, linked], head).firstBroken).toEqual({ seq: 7, reason: BROKEN.added });
  });

  it('names an entry slipped in between two others (the next one links past it)', () => {
    const { rows, head } = trail(4);
    // An entry the app chains next to its predecessor (the entry after it links past the one between).
    const next = content(3);
    const skipping = { ...next, hash: entryHash(next, rows[0]!.hash) };
    const between = { ...content(2, { person: 'mallory' }), hash: 'e'.repeat(64) };
    expect(verifyChain([rows[0]!, between, skipping], head).firstBroken).toEqual({
      seq: 2,
      at: between.at,
      reason: BROKEN.added,
    });
  });

  it('names the first of two entries swapped', () => {
    const { rows, head } = trail(6);
    const a = rows[2]!;
    const b = rows[3]!;
    rows[2] = { ...b, seq: 3 };
    rows[3] = { ...a, seq: 4 };
    expect(verifyChain(rows, head).firstBroken).toMatchObject({ seq: 3, reason: BROKEN.movedOrChanged });
  });

  it('stops judging after the first break and counts every entry it was given', () => {
    const { rows, head } = trail(20);
    rows[1] = { ...rows[1]!, person: 'x' };
    rows[10] = { ...rows[10]!, person: 'y' };
    const walk = new ChainWalk();
    for (const row of rows) walk.add(row);
    expect(walk.done).toBe(true);
    expect(walk.finish(head)).toMatchObject({ entries: 20, firstBroken: { seq: 2 } });
  });
});
