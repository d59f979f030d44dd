import type { DeskDatabase } from '../db/deskDatabase';
import type { AuditEntry, AuditFilter, TrailCheck } from '../../../shared/contract/auditChannels';
import { DeskFailure } from '../../../shared/result';
import { entryHash, type ChainRow } from './auditChain';
import { sealOlderEntries, verifyFolderTrail } from './auditSeal';

/** What is written for one entry; `seq` and nothing else is chosen by the database. */
export interface NewAuditEntry {
  at: string;
  person: string;
  computer: string;
  environment: string;
  action: string;
  workspaceId?: string | null;
  uploadId?: string | null;
  donationId?: string | null;
  details: Record<string, unknown>;
}

/** A row of the audit table as SQLite gives it (details as JSON text): what the chain covers. */
export type AuditRow = ChainRow;

const INSERT = `INSERT INTO audit (seq, at, person, computer, environment, action, workspace_id, upload_id, donation_id, details, hash)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const CHAIN_END = `INSERT INTO audit_chain (one, last_seq, last_hash, unsealed_through) VALUES (1, ?, ?, 0)
  ON CONFLICT (one) DO UPDATE SET last_seq = excluded.last_seq, last_hash = excluded.last_hash`;
const COLUMNS =
  'seq, at, person, computer, environment, action, workspace_id, upload_id, donation_id, details';

/** Connections whose entries written before version 6 are known sealed (checked once per open). */
const sealedDatabases = new WeakSet<DeskDatabase>();

/**
 * The audit table: entries are only ever inserted (triggers refuse UPDATE and DELETE) and read
 * newest first, a page at a time, with the filters as SQL conditions on indexed columns. Each entry
 * is chained to the one before by its hash (auditChain.ts), computed here in the transaction that
 * inserts it, so two writers (the app and a command) cannot fork the chain.
 */
export class AuditStore {
  private readonly database: () => DeskDatabase;

  /**
   * Given the database, or how to open it: opened at the first entry or read, so that a damaged
   * database is reported by the call that needs it, as every other store does, not at start-up.
   */
  constructor(db: DeskDatabase | (() => DeskDatabase)) {
    this.database = typeof db === 'function' ? db : () => db;
  }

  /** The database, its entries from before version 6 sealed the first time it is used. */
  private get db(): DeskDatabase {
    const db = this.database();
    if (!sealedDatabases.has(db)) {
      sealOlderEntries(db);
      sealedDatabases.add(db);
    }
    return db;
  }

  /**
   * Writes one entry, durable when this returns (its own transaction, or the caller's): its seq
   * follows the chain's last entry, its hash covers its content and that entry's hash.
   */
  insert(entry: NewAuditEntry): number {
    const db = this.db;
    return db.transaction(() => {
      const last = db.get<{ seq: number; hash: string | null }>(
        'SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1',
      );
      const end = db.get<{ last_seq: number; last_hash: string | null }>(
        'SELECT last_seq, last_hash FROM audit_chain WHERE one = 1',
      );
      const lastSeq = Number(last?.seq ?? 0);
      // Entries the app wrote last that are gone: the next one follows them, so the gap stays seen.
      const afterRemoved = end !== undefined && Number(end.last_seq) > lastSeq;
      const seq = afterRemoved ? Number(end.last_seq) + 1 : lastSeq + 1;
      const previous = afterRemoved ? end.last_hash : (last?.hash ?? null);
      const row = {
        seq,
        at: entry.at,
        person: entry.person,
        computer: entry.computer,
        environment: entry.environment,
        action: entry.action,
        workspace_id: entry.workspaceId ?? null,
        upload_id: entry.uploadId ?? null,
        donation_id: entry.donationId ?? null,
        details: JSON.stringify(entry.details),
      };
      const hash = entryHash(row, previous);
      db.run(
        INSERT,
        seq,
        row.at,
        row.person,
        row.computer,
        row.environment,
        row.action,
        row.workspace_id,
        row.upload_id,
        row.donation_id,
        row.details,
        hash,
      );
      db.run(CHAIN_END, seq, hash);
      return seq;
    });
  }

  /** Walks the whole trail, link by link, and names the first entry broken (see auditChain.ts). */
  verify(): Promise<TrailCheck> {
    return verifyFolderTrail(this.db);
  }

  /** One page, newest first, starting below `before` (the last page's smallest seq). */
  page(filter: AuditFilter, options: { before?: number; limit?: number } = {}) {
    const limit = options.limit ?? 50;
    const { where, params } = auditConditions(filter, options.before);
    const rows = this.db.all<AuditRow>(
      `SELECT ${COLUMNS} FROM audit ${where} ORDER BY seq DESC LIMIT ?`,
      ...params,
      limit + 1,
    );
    const more = rows.length > limit;
    const entries = rows.slice(0, limit).map(toEntry);
    const counted = auditConditions(filter);
    const total = Number(
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM audit ${counted.where}`, ...counted.params)?.n ??
        0,
    );
    return { entries, total, nextBefore: more ? (entries.at(-1)?.seq ?? null) : null };
  }

  /** Every matching entry, newest first, read one at a time (exports). */
  *all(filter: AuditFilter): Generator<AuditEntry> {
    const { where, params } = auditConditions(filter);
    for (const row of this.db.iterate<AuditRow>(
      `SELECT ${COLUMNS} FROM audit ${where} ORDER BY seq DESC`,
      ...params,
    )) {
      yield toEntry(row);
    }
  }

  /** Everyone in the trail, for the person filter. */
  people(): string[] {
    return this.db
      .all<{ person: string }>('SELECT DISTINCT person FROM audit ORDER BY person')
      .map((r) => r.person);
  }
}

function toEntry(row: AuditRow): AuditEntry {
  return { seq: Number(row.seq), ...entryFields(row) };
}

/** What a stored row says, but its seq: the details parsed (kept as text when they do not parse). */
export function entryFields(row: AuditRow): Omit<AuditEntry, 'seq'> {
  let details: Record<string, unknown>;
  try {
    details = JSON.parse(row.details) as Record<string, unknown>;
  } catch {
    details = { unreadable: row.details };
  }
  return {
    at: row.at,
    person: row.person,
    computer: row.computer,
    environment: row.environment,
    action: row.action,
    workspaceId: row.workspace_id,
    uploadId: row.upload_id,
    donationId: row.donation_id,
    details,
  };
}

/** The next day's start, so `until` includes the whole day it names. */
function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

function checkedDay(day: string, which: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw new DeskFailure(
      'INVALID_INPUT',
      `The ${which} date "${day}" is not a day of the calendar: give it as YYYY-MM-DD.`,
    );
  }
  return day;
}

/**
 * The filter as SQL conditions on the audit table's columns, the same for the data folder's trail
 * and the team's: `placeholder` writes the n-th parameter as the dialect wants it (`?` for SQLite,
 * `$n` for PostgreSQL).
 */
export function auditConditions(
  filter: AuditFilter,
  before?: number,
  placeholder: (n: number) => string = () => '?',
): { where: string; params: Array<string | number> } {
  const parts: string[] = [];
  const params: Array<string | number> = [];
  const add = (sql: string, value: string | number) => {
    params.push(value);
    parts.push(sql.replace('?', placeholder(params.length)));
  };
  if (filter.workspaceId) add('workspace_id = ?', filter.workspaceId);
  if (filter.uploadId) add('upload_id = ?', filter.uploadId);
  if (filter.donationId) add('donation_id = ?', filter.donationId);
  if (filter.person) add('person = ?', filter.person);
  if (filter.since) add('at >= ?', `${checkedDay(filter.since, 'from')}T00:00:00.000Z`);
  if (filter.until) add('at < ?', dayAfter(checkedDay(filter.until, 'to')));
  if (before !== undefined) add('seq < ?', before);
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}
