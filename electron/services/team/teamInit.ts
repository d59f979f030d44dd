import type pg from 'pg';
import { DeskFailure } from '../../../shared/result';
import { applyTeamMigrations, teamSchemaVersion } from './teamMigrator';
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from './teamSchema';

export { teamSchemaVersion };

export interface TeamInitResult {
  /** The version found before (0: an empty database). */
  before: number;
  /** The version now. */
  version: number;
  /** Every statement run, in order, the history's included (none when it was already up to date). */
  statements: string[];
}

/** Serialises two admins setting up the same database at once. */
const INIT_LOCK = "hashtextextended('donation-desk team init', 0)";

/**
 * Creates (or brings up to date) the team schema, roles and grants from the migration files, all in
 * one transaction. Needs a superuser or a login with CREATEROLE that owns the database. A database
 * set up before the files existed is adopted as it is (teamMigrator.ts).
 */
export async function initTeamDatabase(client: pg.ClientBase): Promise<TeamInitResult> {
  const who = await client.query<{ login: string; su: boolean; createrole: boolean }>(
    `SELECT session_user AS login, rolsuper AS su, rolcreaterole AS createrole
     FROM pg_catalog.pg_roles WHERE rolname = session_user`,
  );
  const me = who.rows[0];
  if (!me?.su && !me?.createrole) {
    throw new DeskFailure(
      'TEAM_NOT_ADMIN',
      `Setting up the team database needs an administrator's login (a superuser, or one with CREATEROLE that owns the database); ${me?.login ?? 'this login'} is neither.`,
    );
  }
  const statements: string[] = [];
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${INIT_LOCK})`);
    const before = await teamSchemaVersion(client);
    if (before === null) {
      throw new DeskFailure(
        'TEAM_NOT_DESK',
        'This database already has a schema named desk that Donation Desk did not make; use an empty database.',
      );
    }
    if (before > TEAM_SCHEMA_VERSION) {
      throw new DeskFailure(
        'TEAM_NEWER',
        `This team database is at schema version ${before}, newer than this Donation Desk knows (${TEAM_SCHEMA_VERSION}); update Donation Desk.`,
      );
    }
    statements.push(...(await applyTeamMigrations(client, TEAM_MIGRATIONS, 'The team database')));
    await client.query('COMMIT');
    return { before, version: TEAM_SCHEMA_VERSION, statements };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
