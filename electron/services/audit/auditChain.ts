import { createHash } from 'node:crypto';
import type { TrailCheck } from '../../../shared/contract/auditChannels';
import { entryNumber } from '../../../shared/audit/trailCheckWords';

/*
 * The data folder's audit trail as a hash chain: each entry's hash is SHA-256 over a canonical
 * text of its content (its seq included, so an entry cannot move) and the previous entry's hash.
 * An entry changed, removed or added from outside the app then no longer links, and the walk below
 * names the first one. Pure: the store feeds it rows in order, a page at a time, so a trail of a
 * million entries is checked in bounded memory.
 */

/** What the chain covers of a stored entry: every column but the hash, details as stored text. */
export interface ChainRow {
  seq: number;
  at: string;
  person: string;
  computer: string;
  environment: string;
  action: string;
  workspace_id: string | null;
  upload_id: string | null;
  donation_id: string | null;
  details: string;
}

/** A stored entry with its hash (null: none, as written from outside the app or before version 6). */
export type SealedRow = ChainRow & { hash: string | null };

/** Where the chain ended when the app last wrote to it (the audit_chain row). */
export interface ChainHead {
  lastSeq: number;
  lastHash: string | null;
}

/** Names the scheme inside the hashed text, so that a later one can never be mistaken for it. */
const SCHEME = 'donation-desk audit chain 1';

/** The canonical text hashed for an entry: a JSON array, the same bytes on every computer. */
export function canonicalText(row: ChainRow, previousHash: string | null): string {
  return JSON.stringify([
    SCHEME,
    previousHash ?? '',
    Number(row.seq),
    row.at,
    row.person,
    row.computer,
    row.environment,
    row.action,
    row.workspace_id ?? null,
    row.upload_id ?? null,
    row.donation_id ?? null,
    row.details,
  ]);
}

/** The hash an entry is written with, given the hash of the entry before it (null for the first). */
export function entryHash(row: ChainRow, previousHash: string | null): string {
  return createHash('sha256').update(canonicalText(row, previousHash), 'utf8').digest('hex');
}

export const BROKEN = {
  changed: 'its content was changed after it was written',
  movedOrChanged: 'its content or its place in the trail was changed after it was written',
  added: 'it was added from outside the app',
  removed: (from: number, to: number) =>
    from === to
      ? 'it was removed'
      : `it was removed, and so were the entries after it up to entry ${entryNumber(to)}`,
  removedAtEnd: (lastWritten: number) =>
    `it was removed, with any entries after it (the app had written up to entry ${entryNumber(lastWritten)})`,
  noEnd: 'the record of where the trail ends was removed, so entries at its end may be missing',
} as const;

type Broken = NonNullable<TrailCheck['firstBroken']>;

/**
 * Walks a trail in seq order, one entry at a time (`add`), and says at `finish` whether it is whole
 * or which entry is the first broken. An entry that does not link is judged with the entry after
 * it: if that one still links to the stored hash, only the content was changed; if it links to the
 * entry before, this one was slipped in. Stops looking once it has found the first break.
 */
export class ChainWalk {
  private previous: { seq: number; at: string; hash: string | null } | null = null;
  private pending: { row: SealedRow; previousHash: string | null } | null = null;
  private found: Broken | null = null;
  private seen = 0;

  /** Whether the first break is already known (the rest need not be read). */
  get done(): boolean {
    return this.found !== null;
  }

  add(row: SealedRow): void {
    this.seen++;
    if (this.found) return;
    if (this.pending) {
      this.found = judge(this.pending, row);
      return;
    }
    const seq = Number(row.seq);
    const expected = (this.previous?.seq ?? 0) + 1;
    if (seq > expected) {
      this.found = { seq: expected, reason: BROKEN.removed(expected, seq - 1) };
      return;
    }
    if (row.hash === null) {
      this.found = { seq, at: row.at, reason: BROKEN.added };
      return;
    }
    const previousHash = this.previous?.hash ?? null;
    if (entryHash(row, previousHash) !== row.hash) {
      this.pending = { row, previousHash };
      return;
    }
    this.previous = { seq, at: row.at, hash: row.hash };
  }

  /** The verdict, given where the app last ended the chain (null when that record is missing). */
  finish(head: ChainHead | null, entries = this.seen): TrailCheck {
    const broken = this.found ?? this.atEnd(head);
    return broken
      ? { trail: 'folder', whole: false, entries, firstBroken: broken }
      : { trail: 'folder', whole: true, entries };
  }

  private atEnd(head: ChainHead | null): Broken | null {
    if (this.pending) return judge(this.pending, null, head);
    const last = this.previous;
    if (!head) return last ? { seq: last.seq, reason: BROKEN.noEnd } : null;
    const lastSeq = last?.seq ?? 0;
    if (head.lastSeq > lastSeq) return { seq: lastSeq + 1, reason: BROKEN.removedAtEnd(head.lastSeq) };
    // An entry past the app's last one, even with a hash that links: not written by the app.
    if (head.lastSeq < lastSeq) return { seq: head.lastSeq + 1, reason: BROKEN.added };
    if (last && head.lastHash !== null && head.lastHash !== last.hash) {
      return { seq: last.seq, at: last.at, reason: BROKEN.movedOrChanged };
    }
    return null;
  }
}

/** Why an entry that does not link is broken, judged by the entry after it (or the chain's end). */
function judge(
  pending: { row: SealedRow; previousHash: string | null },
  next: SealedRow | null,
  head?: ChainHead | null,
): Broken {
  const { row, previousHash } = pending;
  const seq = Number(row.seq);
  const at = { seq, at: row.at };
  if (next && next.hash !== null) {
    if (entryHash(next, row.hash) === next.hash) return { ...at, reason: BROKEN.changed };
    if (entryHash(next, previousHash) === next.hash) return { ...at, reason: BROKEN.added };
  }
  if (!next && head) {
    if (head.lastSeq === seq - 1) return { ...at, reason: BROKEN.added };
    if (head.lastSeq === seq && head.lastHash === row.hash) return { ...at, reason: BROKEN.changed };
  }
  return { ...at, reason: BROKEN.movedOrChanged };
}

/** A whole trail given at once (tests, small trails); the store pages through large ones. */
export function verifyChain(rows: Iterable<SealedRow>, head: ChainHead | null): TrailCheck {
  const walk = new ChainWalk();
  for (const row of rows) walk.add(row);
  return walk.finish(head);
}
