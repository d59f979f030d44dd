import type { DeskDatabase } from '../db/deskDatabase';
import type { AuditEntry, AuditFilter } from '../../../shared/contract/auditChannels';
import { DeskFailure } from '../../../shared/result';

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

/** A row of the audit table as SQLite gives it (details as JSON text). */
export interface AuditRow {
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

const INSERT = `INSERT INTO audit (at, person, computer, environment, action, workspace_id, upload_id, donation_id, details)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const COLUMNS =
  'seq, at, person, computer, environment, action, workspace_id, upload_id, donation_id, details';

/**
 * The audit table: entries are only ever inserted (triggers refuse UPDATE and DELETE) and read
 * newest first, a page at a time, with the filters as SQL conditions on indexed columns.
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

  private get db(): DeskDatabase {
    return this.database();
  }

  /** Writes one entry, durable when this returns (its own transaction, or the caller's). */
  insert(entry: NewAuditEntry): number {
    this.db.run(
      INSERT,
      entry.at,
      entry.person,
      entry.computer,
      entry.environment,
      entry.action,
      entry.workspaceId ?? null,
      entry.uploadId ?? null,
      entry.donationId ?? null,
      JSON.stringify(entry.details),
    );
    return Number(this.db.get<{ seq: number }>('SELECT last_insert_rowid() AS seq')?.seq);
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
