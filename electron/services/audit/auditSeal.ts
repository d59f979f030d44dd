import type { DeskDatabase } from '../db/deskDatabase';
import type { TrailCheck } from '../../../shared/contract/auditChannels';
import { ChainWalk, entryHash, type ChainHead, type SealedRow } from './auditChain';

/** Entries read per query while sealing or checking: bounded memory at any size of trail. */
const PAGE = 2_000;

const ROW_COLUMNS =
  'seq, at, person, computer, environment, action, workspace_id, upload_id, donation_id, details, hash';

interface ChainEnd {
  last_seq: number;
  last_hash: string | null;
  unsealed_through: number;
}

function chainEnd(db: DeskDatabase): ChainEnd | undefined {
  return db.get<ChainEnd>('SELECT last_seq, last_hash, unsealed_through FROM audit_chain WHERE one = 1');
}

function pageAfter(db: DeskDatabase, after: number, through = Number.MAX_SAFE_INTEGER): SealedRow[] {
  return db.all<SealedRow>(
    `SELECT ${ROW_COLUMNS} FROM audit WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
    after,
    through,
    PAGE,
  );
}

/**
 * The one-time step after version 6: chains the entries written before it, in order, as they are
 * (the migration cannot hash). Runs in one write transaction, so a second process opening the
 * folder at the same time finds them sealed; the audit table's trigger lets nothing else change.
 */
export function sealOlderEntries(db: DeskDatabase): void {
  if (!Number(chainEnd(db)?.unsealed_through ?? 0)) return;
  db.transaction(() => {
    const end = chainEnd(db);
    const through = Number(end?.unsealed_through ?? 0);
    if (!end || !through) return;
    let previous: string | null = null;
    let after = 0;
    for (;;) {
      const rows = pageAfter(db, after, through);
      if (rows.length === 0) break;
      for (const row of rows) {
        const hash: string = row.hash ?? entryHash(row, previous);
        if (row.hash === null) db.run('UPDATE audit SET hash = ? WHERE seq = ?', hash, row.seq);
        previous = hash;
        after = Number(row.seq);
      }
    }
    db.run(
      `UPDATE audit_chain SET unsealed_through = 0,
         last_hash = CASE WHEN last_seq = ? THEN ? ELSE last_hash END WHERE one = 1`,
      through,
      previous,
    );
  });
}

/** Lets the event loop run between pages (the app's other calls go on during a long check). */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Checks the data folder's trail a page at a time, without a transaction held across the pages
 * (entries are only ever appended, so a page read later only adds to what was read). The record of
 * the chain's end is read before each page: when a page comes back empty, every entry that record
 * counts was already there to read, so an end it names beyond the last entry read was removed.
 */
export async function verifyFolderTrail(db: DeskDatabase): Promise<TrailCheck> {
  const walk = new ChainWalk();
  let after = 0;
  for (;;) {
    const end = chainEnd(db);
    const rows = pageAfter(db, after);
    if (rows.length === 0 || walk.done) {
      const head: ChainHead | null = end ? { lastSeq: Number(end.last_seq), lastHash: end.last_hash } : null;
      const entries = walk.done
        ? Number(db.get<{ n: number }>('SELECT count(*) AS n FROM audit')?.n ?? 0)
        : undefined;
      return walk.finish(head, entries);
    }
    for (const row of rows) walk.add(row);
    after = Number(rows.at(-1)?.seq ?? after);
    await breathe();
  }
}
