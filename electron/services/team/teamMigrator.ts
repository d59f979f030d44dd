import type pg from 'pg';
import {
  checkAdopted,
  planMigrations,
  type AppliedMigration,
  type Migration,
  type MigrationState,
} from '../db/migrationRunner';
import { splitStatements } from '../db/sqlText';

/*
 * The PostgreSQL side of the migration runner: the history is desk.schema_history, the old version
 * marker desk.schema_version, which still gets a row per versioned file (the app reads its version
 * there on connect, and so does an app one version behind). Every statement is returned as it ran,
 * bookkeeping included, so that what `db init-team` prints, run on an empty database, makes the same.
 */

const HISTORY = `CREATE TABLE desk.schema_history (
  name text PRIMARY KEY,
  version integer,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  applied_by text NOT NULL DEFAULT session_user,
  how text NOT NULL CHECK (how IN ('applied', 'adopted'))
)`;

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** The schema version of a team database: 0 when not set up; null when `desk` is someone else's. */
export async function teamSchemaVersion(client: pg.ClientBase): Promise<number | null> {
  const { rows } = await client.query<{ schema: boolean; versions: boolean }>(
    `SELECT to_regnamespace('desk') IS NOT NULL AS schema,
            to_regclass('desk.schema_version') IS NOT NULL AS versions`,
  );
  if (!rows[0]?.schema) return 0;
  if (!rows[0].versions) return null;
  const version = await client.query<{ v: number | null }>(
    'SELECT max(version) AS v FROM desk.schema_version',
  );
  return version.rows[0]?.v ?? 0;
}

export async function teamMigrationState(client: pg.ClientBase): Promise<MigrationState> {
  const legacyVersion = (await teamSchemaVersion(client)) ?? 0;
  const { rows } = await client.query<{ found: boolean }>(
    "SELECT to_regclass('desk.schema_history') IS NOT NULL AS found",
  );
  if (!rows[0]?.found) return { history: null, legacyVersion };
  const history = await client.query<AppliedMigration>(
    'SELECT name, version, checksum FROM desk.schema_history',
  );
  return { history: history.rows, legacyVersion };
}

/** The objects of the desk schema as expectedObjects() names them. */
async function existingObjects(client: pg.ClientBase): Promise<Set<string>> {
  const { rows } = await client.query<{ k: string }>(
    `SELECT 'table:desk.' || c.relname AS k FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'desk' AND c.relkind IN ('r', 'p')
     UNION ALL SELECT 'index:' || c.relname FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'desk' AND c.relkind = 'i'
     UNION ALL SELECT 'function:desk.' || p.proname FROM pg_proc p
       JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'desk'
     UNION ALL SELECT 'trigger:' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'desk' AND NOT t.tgisinternal
     UNION ALL SELECT 'column:desk.' || c.relname || '.' || a.attname FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'desk' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  return new Set(rows.map((r) => r.k.toLowerCase()));
}

/**
 * Brings the team database to the files, inside the caller's transaction (which holds the set-up
 * lock). Answers every statement run, in order: none when it was up to date.
 */
export async function applyTeamMigrations(
  client: pg.ClientBase,
  migrations: readonly Migration[],
  where: string,
): Promise<string[]> {
  const state = await teamMigrationState(client);
  const steps = planMigrations(migrations, state, where);
  if (state.history === null && state.legacyVersion > 0) {
    checkAdopted(steps, await existingObjects(client), where, state.legacyVersion);
  }
  const statements: string[] = [];
  const run = async (sql: string) => {
    statements.push(sql);
    await client.query(sql);
  };
  let historyMade = state.history !== null;
  for (const { action, migration } of steps) {
    if (action === 'apply') {
      for (const sql of splitStatements(migration.text)) await run(sql);
    }
    if (!historyMade) {
      await run(HISTORY);
      historyMade = true;
    }
    const how = literal(action === 'apply' ? 'applied' : 'adopted');
    const version = migration.version === null ? 'NULL' : String(migration.version);
    await run(
      `INSERT INTO desk.schema_history (name, version, checksum, how) VALUES (${literal(migration.name)}, ${version}, ${literal(migration.checksum)}, ${how})
  ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now(), applied_by = session_user, how = excluded.how`,
    );
    if (action === 'apply' && migration.version !== null) {
      await run(
        `INSERT INTO desk.schema_version (version, summary) VALUES (${migration.version}, ${literal(migration.summary)})`,
      );
    }
  }
  return statements;
}
