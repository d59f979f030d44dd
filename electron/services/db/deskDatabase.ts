import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import {
  backup as onlineBackup,
  DatabaseSync,
  type DatabaseSyncInstance,
  type StatementSyncInstance,
} from '@photostructure/sqlite';
import { DeskFailure } from '../../../shared/result';
import { SCHEMA_VERSION, SQLITE_MIGRATIONS } from './schema';
import { applySqliteMigrations, sqliteMigrationPlan } from './sqliteMigrations';

export const DATABASE_FILE = 'desk.db';
/** Backups the app makes itself (before a migration) and `db backup` without --out go here. */
export const BACKUP_FOLDER = 'backups';
/** Written beside the database when it is created: a missing database is then damage, not a first run. */
const CREATED_MARKER = 'desk.db.created';
/** How long a write waits for another process's write to finish before giving up. */
const BUSY_TIMEOUT_MS = 15_000;

/**
 * Page cache per connection, in KB (SQLite's default is 2 MB). 16 MB: a refresh of 200,000
 * donations (rows, indexes and the sums of a 270 MB database) took the same CPU time with 8 MB as
 * with 64 MB, and 64 MB filled up added as much to the process's peak memory (decision 0165); what
 * is not in this cache is in the system's file cache, a read away.
 */
const CACHE_KB = 16 * 1024;

const SQLITE_DAMAGE = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CANTOPEN', 'SQLITE_IOERR']);

type Params = Array<string | number | bigint | null | Uint8Array>;
export type Row = Record<string, unknown>;

export interface CheckResult {
  ok: boolean;
  /** What `PRAGMA integrity_check` reported ("ok" alone when whole). */
  problems: string[];
  path: string;
  schemaVersion: number;
  bytes: number;
}

/**
 * One SQLite database per data folder (`desk.db`), shared by every store of this process and by
 * the other processes on the same folder (the app and the CLI side by side). WAL lets readers go on
 * while one writes; `synchronous=FULL` makes a commit durable before it returns, the guarantee the
 * fsynced journal gave. Stores use `transaction()` for anything written together and keep no
 * transaction open across an `await`, so another process never waits on this one's network calls.
 */
export class DeskDatabase {
  private readonly statements = new Map<string, StatementSyncInstance>();
  /** Statements that answer rows as arrays (see `rows`), cached apart from those answering objects. */
  private readonly arrayStatements = new Map<string, StatementSyncInstance>();
  private depth = 0;

  private constructor(
    readonly dataDir: string,
    readonly path: string,
    readonly db: DatabaseSyncInstance,
  ) {}

  /** Opens (creating if new) and migrates the database of a data folder. Throws DeskFailure when damaged. */
  static open(dataDir: string): DeskDatabase {
    const dir = resolve(dataDir);
    const path = join(dir, DATABASE_FILE);
    mkdirSync(dir, { recursive: true });
    const isNew = !existsSync(path);
    if (isNew && existsSync(join(dir, CREATED_MARKER))) {
      throw new DeskFailure(
        'DB_MISSING',
        `The database ${path} is missing, but this data folder had one. Nothing was started in its place. ${restoreAdvice(dir)}`,
        { path, backup: newestBackup(dir) },
      );
    }
    let db: DatabaseSyncInstance | null = null;
    try {
      db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true });
      const deskDb = new DeskDatabase(dir, path, db);
      deskDb.configure();
      deskDb.migrate();
      if (isNew) writeFileSync(join(dir, CREATED_MARKER), `${new Date().toISOString()}\n`);
      return deskDb;
    } catch (e) {
      try {
        db?.close();
      } catch {
        // Already unusable; the failure below says why.
      }
      throw asDeskFailure(e, path, dir);
    }
  }

  private configure(): void {
    // WAL survives in the file; setting it again is cheap and also converts a database made elsewhere.
    const mode = this.get<{ journal_mode: string }>('PRAGMA journal_mode = WAL');
    if (mode?.journal_mode !== 'wal') {
      throw new DeskFailure('DB_UNREADABLE', `The database ${this.path} could not be switched to WAL mode.`);
    }
    this.db.exec('PRAGMA synchronous = FULL');
    // The default page cache is 2 MB; a refresh updates rows and six indexes spread over a database
    // of about 1 GB per million donations. Memory is only taken as pages are used. (No mmap: an I/O
    // error on a mapped page kills the process instead of becoming an error we can report.)
    this.db.exec(`PRAGMA cache_size = -${CACHE_KB}`);
    // Reads the header and schema now: a damaged file fails here, at open, not halfway through a job.
    this.get('SELECT count(*) AS n FROM sqlite_master');
  }

  private migrate(): void {
    const current = this.schemaVersion();
    if (current > SCHEMA_VERSION) {
      throw new DeskFailure(
        'DB_TOO_NEW',
        `The database ${this.path} was written by a newer Donation Desk (schema ${current}, this one knows ${SCHEMA_VERSION}). Install the newer version; nothing was changed.`,
      );
    }
    // Refuses here, before anything is written, when the history and the files disagree.
    const steps = sqliteMigrationPlan(this.db, SQLITE_MIGRATIONS, `The database ${this.path}`);
    if (steps.length === 0) return;
    if (current > 0 && steps.some((s) => s.action === 'apply' && s.migration.version !== null)) {
      // A copy of what the older version wrote, in case the upgrade must be undone.
      const folder = join(this.dataDir, BACKUP_FOLDER);
      mkdirSync(folder, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const copy = join(folder, `desk-schema-${current}-before-upgrade-${stamp}.db`);
      this.db.exec(`VACUUM INTO '${copy.replace(/'/g, "''")}'`);
    }
    // Another process may have migrated while this one waited for the write lock: planned again inside.
    this.transaction(() => applySqliteMigrations(this.db, SQLITE_MIGRATIONS, `The database ${this.path}`));
  }

  schemaVersion(): number {
    return Number(this.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0);
  }

  private statement(sql: string): StatementSyncInstance {
    const cached = this.statements.get(sql);
    if (cached) return cached;
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    return statement;
  }

  /**
   * Changes whenever another connection (another process) has committed since: with a count of
   * its own writes, a reader may keep what it derived from the database while both stay the same.
   */
  dataVersion(): number {
    return Number(this.get<{ data_version: number }>('PRAGMA data_version')?.data_version ?? 0);
  }

  run(sql: string, ...params: Params): { changes: number } {
    return this.guard(() => ({ changes: Number(this.statement(sql).run(...params).changes) }));
  }

  get<T = Row>(sql: string, ...params: Params): T | undefined {
    return this.guard(() => this.statement(sql).get(...params) as T | undefined);
  }

  all<T = Row>(sql: string, ...params: Params): T[] {
    return this.guard(() => this.statement(sql).all(...params) as T[]);
  }

  /**
   * Rows as arrays of their columns' values, in the select's order: the binding then builds no
   * object per row (a property at a time), which cost a refresh reading 100,000 rows about 0.2 s.
   */
  rows(sql: string, ...params: Params): unknown[][] {
    return this.guard(() => {
      let statement = this.arrayStatements.get(sql);
      if (!statement) {
        statement = this.db.prepare(sql);
        statement.setReturnArrays(true);
        this.arrayStatements.set(sql, statement);
      }
      return statement.all(...params) as unknown as unknown[][];
    });
  }

  /** Rows one at a time, for reading more than fits comfortably in memory. */
  *iterate<T = Row>(sql: string, ...params: Params): Generator<T> {
    // A statement of its own: the cached one may be used again before this iteration ends.
    const statement = this.db.prepare(sql);
    for (const row of statement.iterate(...params)) yield row as T;
  }

  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE: the write lock is taken at once, so two
   * processes never both read-then-write). Nested calls join the outer transaction. Durable once
   * it returns. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.guard(() => this.db.exec('BEGIN IMMEDIATE'));
    this.depth++;
    try {
      const result = fn();
      this.guard(() => this.db.exec('COMMIT'));
      return result;
    } catch (e) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw e;
    } finally {
      this.depth--;
    }
  }

  /**
   * After a large write (a refresh of an upload): empties the WAL file if no other connection is
   * reading, without waiting for one. Its frames are already copied into the database by the
   * checkpoints after each commit, but a WAL left full is replayed by the next process to open the
   * folder (the CLI after the app, the next command), which then copies every page again: measured,
   * 0.5–1.5 s added to the next refresh after a refresh of 100,000 donations. Returns whether it did.
   */
  truncateWal(): boolean {
    if (this.depth > 0) return false;
    this.db.exec('PRAGMA busy_timeout = 0');
    try {
      return this.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)')?.busy === 0;
    } catch {
      // Busy or locked: another process is reading or writing; the next checkpoint does it.
      return false;
    } finally {
      this.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  /** `PRAGMA integrity_check`: reads every page. Takes a while on a large database; for `db check`. */
  check(): CheckResult {
    const problems = this.all<{ integrity_check: string }>('PRAGMA integrity_check').map(
      (r) => r.integrity_check,
    );
    return {
      ok: problems.length === 1 && problems[0] === 'ok',
      problems,
      path: this.path,
      schemaVersion: this.schemaVersion(),
      bytes: fileBytes(this.path) + fileBytes(`${this.path}-wal`),
    };
  }

  /**
   * A consistent copy of the database taken while it is in use (SQLite's online backup, page by
   * page with the event loop free), written to a temporary file, fsynced and renamed into place.
   */
  async backup(out: string): Promise<{ path: string; bytes: number }> {
    const target = resolve(out);
    if (target === this.path) {
      throw new DeskFailure('USAGE', `The backup cannot be written over the database itself (${target}).`);
    }
    mkdirSync(dirname(target), { recursive: true });
    const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await onlineBackup(this.db, temp);
      // The copy is in rollback-journal mode as a plain file; verify it before it replaces anything.
      const copy = new DatabaseSync(temp);
      try {
        const result = copy.prepare('PRAGMA quick_check').get() as { quick_check: string } | undefined;
        if (result?.quick_check !== 'ok') {
          throw new DeskFailure('BACKUP_FAILED', `The backup written to ${target} did not read back whole.`);
        }
        copy.exec('PRAGMA journal_mode = DELETE');
      } finally {
        copy.close();
      }
      const handle = await open(temp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    } catch (e) {
      await rm(temp, { force: true });
      if (e instanceof DeskFailure) throw e;
      throw new DeskFailure(
        'BACKUP_FAILED',
        `The backup could not be written to ${target}: ${e instanceof Error ? e.message : String(e)}. Check that the folder exists and has room.`,
      );
    }
    return { path: target, bytes: (await stat(target)).size };
  }

  /**
   * Closes the connection. The binding does not finalize prepared statements on close: while any is
   * still alive in JavaScript, SQLite keeps the connection open as a "zombie" and really closes it
   * when garbage collection finalizes the last one; being then the last connection, it checkpoints
   * its WAL into the database file, which by then may have been replaced (a backup restored over it)
   * or damaged. So the WAL is emptied first, without waiting for another process's reader: the late
   * close then has nothing to write.
   */
  close(): void {
    this.statements.clear();
    this.arrayStatements.clear();
    if (!this.db.isOpen) return;
    if (this.depth === 0) this.truncateWal();
    this.db.close();
  }

  /** Damage found while in use is reported like damage found at open. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw asDeskFailure(e, this.path, this.dataDir);
    }
  }
}

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The newest backup in the data folder's backups/ folder, if any. */
export function newestBackup(dataDir: string): string | null {
  const folder = join(dataDir, BACKUP_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.db'));
  } catch {
    return null;
  }
  const dated = names.map((n) => ({ path: join(folder, n), at: statSync(join(folder, n)).mtimeMs }));
  dated.sort((a, b) => b.at - a.at);
  return dated[0]?.path ?? null;
}

export function restoreAdvice(dataDir: string): string {
  const backup = newestBackup(dataDir);
  const path = join(dataDir, DATABASE_FILE);
  return backup
    ? `Close Donation Desk (the app and every command), then copy the backup ${backup} to ${path}, or ask support.`
    : `No backup was found in ${join(dataDir, BACKUP_FOLDER)}. Close Donation Desk, restore ${path} from your own backup of this folder (made with "donation-desk db backup"), or ask support.`;
}

function asDeskFailure(e: unknown, path: string, dataDir: string): Error {
  if (e instanceof DeskFailure) return e;
  const info = e as { sqliteCodeName?: string; sqliteErrorString?: string; code?: string };
  const name = info.sqliteCodeName ?? '';
  if (SQLITE_DAMAGE.has(name) || name.startsWith('SQLITE_CORRUPT') || name.startsWith('SQLITE_IOERR')) {
    return new DeskFailure(
      'DB_UNREADABLE',
      `The database ${path} is damaged or unreadable (${info.sqliteErrorString ?? name}). It was left as it is and nothing was started in its place. ${restoreAdvice(dataDir)}`,
      { path, backup: newestBackup(dataDir), sqlite: name },
    );
  }
  if (name === 'SQLITE_BUSY' || name === 'SQLITE_LOCKED') {
    return new DeskFailure(
      'BUSY',
      `The database ${path} stayed busy with another Donation Desk (the app or a command) for ${BUSY_TIMEOUT_MS / 1000} s. Try again when it has finished.`,
    );
  }
  return e instanceof Error ? e : new Error(String(e));
}

const open_ = new Map<string, DeskDatabase>();

/** The database of a data folder, opened once per process and shared by its stores. */
export function databaseOf(dataDir: string): DeskDatabase {
  const key = resolve(dataDir);
  let db = open_.get(key);
  if (!db || !db.db.isOpen) {
    db = DeskDatabase.open(key);
    open_.set(key, db);
  }
  return db;
}

/** Closes the shared database of a data folder (tests, and the end of a CLI run). */
export function closeDatabase(dataDir: string): void {
  const key = resolve(dataDir);
  open_.get(key)?.close();
  open_.delete(key);
}
