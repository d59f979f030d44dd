import { hostname } from 'node:os';
import type { z } from 'zod';
import type { TeamStatus, teamChannels } from '../../../shared/contract/teamChannels';
import { formatMinor } from '../../../shared/amounts/formatMinor';
import { DeskFailure } from '../../../shared/result';
import { describeServer } from './teamErrors';
import { PgTeamDatabase, type PgTeamDatabaseOptions } from './teamDatabase';
import { encryptionInWords } from '../../../shared/team/encryptionWords';
import {
  checkRootCert,
  isLocalServer,
  readEncryption,
  teamTlsPlan,
  type TeamEncryption,
  type TeamTlsPlan,
} from './teamTls';
import type { TeamDatabase, TeamRule } from './teamTypes';

export const DATABASE_URL_VARIABLE = 'DONATION_DESK_DATABASE_URL';

export type TeamTestResult = z.infer<(typeof teamChannels)['team.test']['response']>;

export interface TeamConnectionOptions {
  /** The environment to read DONATION_DESK_DATABASE_URL from (default process.env). */
  env?: Record<string, string | undefined>;
  /** The address kept in Settings → Team database, if any (read at every call). */
  settingsUrl?: () => string | null;
  /** This computer's name, recorded with claims and decisions (default: hostname). */
  computer?: string;
  /** Pool and timeout settings for the databases opened. */
  database?: Omit<PgTeamDatabaseOptions, 'url' | 'computer'>;
}

interface Resolved {
  url: string;
  source: 'environment' | 'settings';
}

interface Open {
  /** The address given to the driver (TLS parameters resolved, see teamTls.ts). */
  address: string;
  db: PgTeamDatabase;
  /** What the server said of the encryption, asked once per database opened. */
  encryption: Promise<TeamEncryption | null> | null;
}

/**
 * Which team database is in force, if any: DONATION_DESK_DATABASE_URL wins over Settings; neither
 * means alone. The database is opened at first use and opened anew when the address changes, so
 * Settings take effect without a restart. Nothing here holds or reveals a password beyond the pool.
 */
export class TeamConnection {
  private readonly env: Record<string, string | undefined>;
  private readonly settingsUrl: () => string | null;
  private readonly computer: string;
  private readonly databaseOptions: TeamConnectionOptions['database'];
  private open: Open | null = null;

  constructor(options: TeamConnectionOptions = {}) {
    this.env = options.env ?? process.env;
    this.settingsUrl = options.settingsUrl ?? (() => null);
    this.computer = options.computer ?? hostname();
    this.databaseOptions = options.database;
  }

  private resolve(): Resolved | null {
    const fromEnv = this.env[DATABASE_URL_VARIABLE]?.trim();
    if (fromEnv) return { url: fromEnv, source: 'environment' };
    const fromSettings = this.settingsUrl()?.trim();
    if (fromSettings) return { url: fromSettings, source: 'settings' };
    return null;
  }

  /**
   * The team database in force, or null alone. Throws (INVALID_INPUT) when the address set is not
   * one: working alone instead would quietly drop the shared duplicate guard.
   */
  current(): TeamDatabase | null {
    const resolved = this.resolve();
    if (!resolved) {
      this.drop();
      return null;
    }
    const plan = this.plan(resolved.url);
    if (this.open?.address === plan.address) return this.open.db;
    this.drop();
    const db = this.make(plan);
    this.open = { address: plan.address, db, encryption: null };
    return db;
  }

  /** The TLS the address asks for (PGSSLMODE and PGSSLROOTCERT when it says nothing). */
  private plan(url: string): TeamTlsPlan {
    return teamTlsPlan(url, this.env);
  }

  /** Whether the open database's connections are encrypted, as its server says; asked again after a failure. */
  private encryptionOfOpen(): Promise<TeamEncryption | null> {
    const open = this.open;
    if (!open) return Promise.resolve(null);
    open.encryption ??= readEncryption(open.address).catch(() => {
      open.encryption = null;
      return null;
    });
    return open.encryption;
  }

  /** Where the address comes from and the server it names (never the password); null alone. */
  describe(): { server: string; source: 'environment' | 'settings' } | null {
    const resolved = this.resolve();
    if (!resolved) return null;
    return { server: serverOrNote(resolved.url), source: resolved.source };
  }

  /** Alone, or the team database with who is connected, their roles, the rule, or what is wrong. */
  async status(): Promise<TeamStatus> {
    const resolved = this.resolve();
    if (!resolved) return { mode: 'alone' };
    const base = {
      mode: 'team' as const,
      server: serverOrNote(resolved.url),
      source: resolved.source,
      local: isLocalServer(resolved.url),
    };
    const down = (e: unknown) => ({
      ...base,
      reachable: false,
      login: null,
      roles: [],
      problem: messageOf(e),
      rule: null,
      encryption: null,
    });
    let db: TeamDatabase | null;
    try {
      db = this.current();
    } catch (e) {
      return down(e);
    }
    if (!db) return { mode: 'alone' };
    let who;
    try {
      who = await db.who();
    } catch (e) {
      return down(e);
    }
    const encryption = await this.encryptionOfOpen();
    let rule: TeamRule | null = null;
    let problem: string | null = null;
    try {
      rule = await db.rule();
    } catch (e) {
      problem = messageOf(e);
    }
    return { ...base, reachable: true, login: who.login, roles: who.roles, problem, rule, encryption };
  }

  /**
   * Tries an address (or the one in force) without saving or switching anything: connects, asks
   * who the login is and reads the team's rule, then closes.
   */
  async test(url?: string): Promise<TeamTestResult> {
    const target = url?.trim() || this.resolve()?.url;
    if (!target) {
      return {
        ok: false,
        server: '',
        login: null,
        roles: [],
        message: `No team database is set: enter its address, or set ${DATABASE_URL_VARIABLE}.`,
      };
    }
    let server: string;
    let plan: TeamTlsPlan;
    let db: PgTeamDatabase;
    try {
      server = describeServer(target);
      plan = this.plan(target);
      db = this.make(plan, { poolSize: 1 });
    } catch (e) {
      return { ok: false, server: '', login: null, roles: [], message: messageOf(e) };
    }
    try {
      const who = await db.who();
      const encryption = await readEncryption(plan.address).catch(() => null);
      const secrecy = encryptionInWords(encryption, isLocalServer(target));
      try {
        const rule = await db.rule();
        const roles = rolesInWords(who.roles);
        return {
          ok: true,
          server,
          login: who.login,
          roles: who.roles,
          message: `Connected to ${server} as ${who.login}, ${roles}; ${secrecy}. ${ruleInWords(rule)}`,
        };
      } catch (e) {
        return {
          ok: false,
          server,
          login: who.login,
          roles: who.roles,
          message: `Connected to ${server} as ${who.login}, but: ${messageOf(e)}`,
        };
      }
    } catch (e) {
      return { ok: false, server, login: null, roles: [], message: messageOf(e) };
    } finally {
      await db.close();
    }
  }

  async close(): Promise<void> {
    const open = this.open;
    this.open = null;
    await open?.db.close();
  }

  private make(plan: TeamTlsPlan, extra: Partial<PgTeamDatabaseOptions> = {}): PgTeamDatabase {
    if (plan.rootCert) checkRootCert(plan.rootCert);
    return new PgTeamDatabase({
      ...this.databaseOptions,
      ...extra,
      url: plan.address,
      computer: this.computer,
    });
  }

  private drop(): void {
    const open = this.open;
    this.open = null;
    // Calls still running on the old pool finish first: pool.end() waits for checked-out clients.
    void open?.db.close();
  }
}

function serverOrNote(url: string): string {
  try {
    return describeServer(url);
  } catch {
    return 'not a valid address';
  }
}

function messageOf(e: unknown): string {
  if (e instanceof DeskFailure) return e.message;
  return 'The team database could not be used (an unexpected error; see the log).';
}

/** The team's rule as one sentence. */
export function ruleInWords(rule: TeamRule): string {
  if (rule.approval === 'always') return "The team's rule: every upload waits for an approver.";
  if (rule.approval === 'never') return "The team's rule: uploads go out without approval.";
  const limits = Object.entries(rule.thresholds)
    .map(([currency, amount]) => formatMinor(amount, currency, 'en'))
    .join(', ');
  return limits
    ? `The team's rule: an upload waits for an approver when its total is above ${limits}; other currencies always wait.`
    : "The team's rule: every upload waits for an approver (no amount set).";
}

const roleWords: Record<string, string> = {
  desk_preparer: 'preparer',
  desk_approver: 'approver',
  desk_admin: 'desk admin',
};

/** A login's desk roles in words, as Settings shows them: "preparer and approver". */
export function rolesInWords(roles: readonly string[]): string {
  const words = roles.map((r) => roleWords[r] ?? r);
  if (words.length === 0) return 'no desk role yet (ask the desk admin to grant one)';
  return new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(words);
}
