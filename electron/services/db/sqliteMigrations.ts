import {
  checkAdopted,
  planMigrations,
  type AppliedMigration,
  type Migration,
  type MigrationState,
  type MigrationStep,
} from './migrationRunner';

/*
 * The SQLite side of the migration runner: the history is the table schema_history, the old
 * version marker `PRAGMA user_version`, which is still raised with each versioned file so that an
 * older Donation Desk reads the database's version as before.
 */

/** What the runner needs of a connection (@photostructure/sqlite's DatabaseSync has it). */
export interface SqliteConnection {
  exec(sql: string): void;
  prepare(sql: string): {
    get(...params: Array<string | number | null>): unknown;
    all(...params: Array<string | number | null>): unknown[];
    run(...params: Array<string | number | null>): unknown;
  };
}

const HISTORY = `CREATE TABLE IF NOT EXISTS schema_history (
  name TEXT PRIMARY KEY,
  version INTEGER,
  checksum TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  how TEXT NOT NULL CHECK (how IN ('applied', 'adopted'))
)`;

export function sqliteMigrationState(db: SqliteConnection): MigrationState {
  const legacy = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  const hasHistory = db
    .prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'schema_history'")
    .get();
  const history = hasHistory
    ? (db.prepare('SELECT name, version, checksum FROM schema_history').all() as AppliedMigration[]).map(
        (h) => ({ ...h, version: h.version === null ? null : Number(h.version) }),
      )
    : null;
  return { history, legacyVersion: Number(legacy?.user_version ?? 0) };
}

/** What opening would do; nothing when the database is up to date. Refuses a history that disagrees. */
export function sqliteMigrationPlan(
  db: SqliteConnection,
  migrations: readonly Migration[],
  where: string,
): MigrationStep[] {
  return planMigrations(migrations, sqliteMigrationState(db), where);
}

/** The objects of the database as expectedObjects() names them. */
function existingObjects(db: SqliteConnection): Set<string> {
  const rows = db
    .prepare(
      `SELECT lower(type || ':' || name) AS k FROM sqlite_master WHERE type IN ('table', 'index', 'trigger')
       UNION ALL
       SELECT lower('column:' || m.name || '.' || p.name) FROM sqlite_master m, pragma_table_info(m.name) p
       WHERE m.type = 'table'`,
    )
    .all() as Array<{ k: string }>;
  return new Set(rows.map((r) => r.k));
}

/**
 * Brings the database to the files. Run it inside one write transaction (BEGIN IMMEDIATE): it reads
 * the state again there, since another process may have migrated while this one waited. Answers
 * the steps taken.
 */
export function applySqliteMigrations(
  db: SqliteConnection,
  migrations: readonly Migration[],
  where: string,
): MigrationStep[] {
  const state = sqliteMigrationState(db);
  const steps = planMigrations(migrations, state, where);
  if (steps.length === 0) return steps;
  if (state.history === null && state.legacyVersion > 0) {
    checkAdopted(steps, existingObjects(db), where, state.legacyVersion);
  }
  let historyMade = state.history !== null;
  for (const { action, migration } of steps) {
    if (action === 'apply') db.exec(migration.text);
    if (!historyMade) {
      db.exec(HISTORY);
      historyMade = true;
    }
    db.prepare(
      `INSERT INTO schema_history (name, version, checksum, applied_at, how) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = excluded.applied_at,
         how = excluded.how`,
    ).run(
      migration.name,
      migration.version,
      migration.checksum,
      new Date().toISOString(),
      action === 'apply' ? 'applied' : 'adopted',
    );
    if (action === 'apply' && migration.version !== null) {
      db.exec(`PRAGMA user_version = ${migration.version}`);
    }
  }
  return steps;
}

/** The same in a transaction of its own (for a connection that is not a DeskDatabase's). */
export function migrateSqlite(
  db: SqliteConnection,
  migrations: readonly Migration[],
  where: string,
): MigrationStep[] {
  db.exec('BEGIN IMMEDIATE');
  try {
    const steps = applySqliteMigrations(db, migrations, where);
    db.exec('COMMIT');
    return steps;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}
