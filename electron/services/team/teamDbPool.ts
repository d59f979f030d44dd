import { hostname } from 'node:os';
import pg from 'pg';
import { DeskFailure } from '../../../shared/result';
import { describeServer, passwordOf, teamFailure } from './teamErrors';
import { teamSchemaVersion } from './teamInit';
import { TEAM_ROLES, TEAM_SCHEMA_VERSION } from './teamSchema';
import type { TeamRole, TeamWho } from './teamTypes';

export interface PgTeamDatabaseOptions {
  /** postgres://login:password@host:port/database */
  url: string;
  /** This computer's name, recorded with claims, decisions and leases. */
  computer?: string;
  /** Connections kept open (default 3: the app is one person). */
  poolSize?: number;
  /** How long to wait for a connection (default 5 s). */
  connectTimeoutMs?: number;
  /** The longest a statement may run (default 15 s). */
  statementTimeoutMs?: number;
}

/**
 * The connection to the team database: a small `pg` pool, the check that the schema is there and
 * new enough, and every failure answered as a DeskFailure in plain words. The other teamDb* modules
 * run their statements through it.
 */
export class TeamDbPool {
  readonly server: string;
  /** This computer's name, recorded with claims, decisions and leases. */
  readonly computer: string;
  readonly pool: pg.Pool;
  private readonly password: string | null;
  private readonly clientConfig: pg.ClientConfig;
  private ready: Promise<void> | null = null;

  constructor(options: PgTeamDatabaseOptions) {
    this.server = describeServer(options.url);
    this.password = passwordOf(options.url);
    this.computer = options.computer ?? hostname();
    this.clientConfig = {
      connectionString: options.url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
      query_timeout: (options.statementTimeoutMs ?? 15_000) + 5_000,
      application_name: 'Donation Desk',
    };
    this.pool = new pg.Pool({ ...this.clientConfig, max: options.poolSize ?? 3, idleTimeoutMillis: 30_000 });
    // A connection dropped while idle (server restart, network) is not a crash: the next call reconnects.
    this.pool.on('error', () => undefined);
  }

  /**
   * A connection of its own, outside the pool, with the pool's address and TLS settings: the one
   * that listens for the team's news (teamNews.ts). Kept alive by TCP keep-alives, so a network
   * that went away is noticed.
   */
  newsClient(): pg.Client {
    return new pg.Client({ ...this.clientConfig, keepAlive: true, application_name: 'Donation Desk news' });
  }

  failure(e: unknown): DeskFailure {
    return teamFailure(e, this.server, this.password);
  }

  /** Runs one statement as it is, for who() and schemaVersion() (which work before set-up). */
  async raw<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw this.failure(e);
    }
  }

  /** Once per connection set: the schema is there and not older than this app needs. */
  private async checkSchema(): Promise<void> {
    const version = await this.schemaVersion();
    if (version === 0 || version === null) {
      throw new DeskFailure(
        'TEAM_NOT_SET_UP',
        `The team database at ${this.server} is not set up for Donation Desk yet: the team's admin runs donation-desk db init-team.`,
      );
    }
    if (version < TEAM_SCHEMA_VERSION) {
      throw new DeskFailure(
        'TEAM_SCHEMA_OLD',
        `The team database at ${this.server} is at schema version ${version}; this Donation Desk needs ${TEAM_SCHEMA_VERSION}: the team's admin runs donation-desk db init-team to bring it up to date.`,
      );
    }
  }

  async checked(): Promise<void> {
    if (!this.ready) {
      this.ready = this.checkSchema();
      this.ready.catch(() => {
        this.ready = null;
      });
    }
    await this.ready;
  }

  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    await this.checked();
    return this.raw<R>(sql, params);
  }

  /**
   * 0 when the database has no desk schema; null when `desk` is not Donation Desk's; refused when
   * the login holds no desk role.
   */
  async schemaVersion(): Promise<number | null> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.failure(e);
    }
    try {
      return await teamSchemaVersion(client);
    } catch (e) {
      // A login without a desk role may not even look into the schema.
      if ((e as { code?: string }).code === '42501') {
        throw new DeskFailure(
          'TEAM_REFUSED',
          `Your login holds no desk role on the team database at ${this.server}: ask the team's admin to grant you desk_preparer (or desk_approver).`,
          { sqlstate: '42501' },
        );
      }
      throw this.failure(e);
    } finally {
      client.release();
    }
  }

  /**
   * The login and its desk roles. desk_approver counts only when held other than through desk_admin
   * (an admin approves only when also granted desk_approver), as the database's desk.approves says.
   */
  async who(): Promise<TeamWho> {
    const rows = await this.raw<{ login: string; roles: string[] }>(
      `WITH RECURSIVE held(oid, name) AS (
         SELECT r.oid, r.rolname::text FROM pg_catalog.pg_roles r WHERE r.rolname = session_user
         UNION
         SELECT m.roleid, g.rolname::text FROM pg_catalog.pg_auth_members m
           JOIN held h ON m.member = h.oid JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
         WHERE h.name <> 'desk_admin')
       SELECT session_user AS login, ARRAY(
         SELECT rolname::text FROM pg_catalog.pg_roles
         WHERE rolname = ANY ($1::text[]) AND pg_catalog.pg_has_role(session_user, oid, 'MEMBER')
           AND (rolname <> 'desk_approver' OR EXISTS (SELECT 1 FROM held WHERE name = 'desk_approver'))
         ORDER BY array_position($1::text[], rolname::text)) AS roles`,
      [TEAM_ROLES],
    );
    return { login: rows[0]!.login, roles: rows[0]!.roles as TeamRole[], server: this.server };
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** The SQLSTATE a failure from the team database carried, if any. */
export function sqlstateOf(e: unknown): string | undefined {
  return e instanceof DeskFailure ? (e.details as { sqlstate?: string } | undefined)?.sqlstate : undefined;
}
