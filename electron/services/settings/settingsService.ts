import { z } from 'zod';
import { DeskFailure } from '../../../shared/result';
import {
  environmentLabels,
  remoteEnvironmentIds,
  type EnvironmentId,
  type PublicSettings,
  type RemoteEnvironmentId,
  type SettingsUpdate,
  environmentIdSchema,
} from '../../../shared/contract';
import type { TeamDatabaseSettings, TeamDatabaseUpdate } from '../../../shared/contract/teamChannels';
import type { SecretBox } from '../core/platform';
import type { KeyValueStore } from './keyValueStore';
import { joinTeamAddress, sameTeamLogin, splitTeamAddress, teamServerOf } from './teamAddress';

const storedAddresses = z.object({
  baseUrl: z.string().default(''),
  tokenUrl: z.string().default(''),
  programDomain: z.string().default(''),
});
const storedRemote = z.object({
  addresses: storedAddresses.default({ baseUrl: '', tokenUrl: '', programDomain: '' }),
  clientId: z.string().default(''),
  /** safeStorage-sealed secret, base64; present only where the OS key store is strong. */
  sealedSecret: z.string().optional(),
});
type StoredRemote = z.infer<typeof storedRemote>;

/** Settings → Team database: the address in plain, its password sealed like a client secret. */
const storedTeamDatabase = z.object({
  address: z.string().default(''),
  sealedPassword: z.string().optional(),
});
type StoredTeamDatabase = z.infer<typeof storedTeamDatabase>;

/** The variable that names the team database for a run; it wins over Settings. */
export const TEAM_DATABASE_VARIABLE = 'DONATION_DESK_DATABASE_URL';

export interface RemoteConfig {
  id: RemoteEnvironmentId;
  baseUrl: string;
  tokenUrl: string;
  programDomain: string;
  clientId: string;
  clientSecret: string | null;
}

/** What a remote environment still lacks before it can be used, in words ('service address', …). */
export function missingParts(remote: Omit<RemoteConfig, 'id' | 'programDomain'>): string[] {
  return [
    !remote.baseUrl && 'service address',
    !remote.tokenUrl && 'token address',
    !remote.clientId && 'client id',
    !remote.clientSecret && 'client secret',
  ].filter((part): part is string => Boolean(part));
}

/** Addresses a deployment can preset for the named environments (the spec leaves them to the contract). */
const presetVariables: Record<RemoteEnvironmentId, { base: string; token: string; program: string }> = {
  sandbox: {
    base: 'DONATION_DESK_SANDBOX_BASE_URL',
    token: 'DONATION_DESK_SANDBOX_TOKEN_URL',
    program: 'DONATION_DESK_SANDBOX_PROGRAM_DOMAIN',
  },
  production: {
    base: 'DONATION_DESK_PRODUCTION_BASE_URL',
    token: 'DONATION_DESK_PRODUCTION_TOKEN_URL',
    program: 'DONATION_DESK_PRODUCTION_PROGRAM_DOMAIN',
  },
  custom: { base: '', token: '', program: '' },
};

/**
 * Settings kept by main. Client secrets are sealed with the OS key store where it is strong, held
 * in memory for the session otherwise, and never returned to callers outside main.
 */
export class SettingsService {
  private readonly sessionSecrets = new Map<RemoteEnvironmentId, string>();
  /** The team database's password where the OS key store is not strong: this session only. */
  private sessionTeamPassword: string | null = null;
  /** Command-line choices for this run only: never written to the settings file. */
  private runOverrides: { environment?: EnvironmentId; baseUrl?: string; tokenUrl?: string } = {};

  constructor(
    private readonly store: KeyValueStore,
    private readonly secretBox: SecretBox | null,
    private readonly env: Record<string, string | undefined> = {},
  ) {}

  get secretsPersist(): boolean {
    return this.secretBox?.isStrong() ?? false;
  }

  /** `--env`, `--base-url`, `--token-url`: in force for this run, not saved. */
  overrideForRun(overrides: { environment?: EnvironmentId; baseUrl?: string; tokenUrl?: string }): void {
    this.runOverrides = { ...overrides };
  }

  environment(): EnvironmentId {
    if (this.runOverrides.environment) return this.runOverrides.environment;
    const parsed = environmentIdSchema.safeParse(this.store.get('environment'));
    return parsed.success ? parsed.data : 'offline';
  }

  private remote(id: RemoteEnvironmentId): StoredRemote {
    const parsed = storedRemote.safeParse(this.store.get(`remotes.${id}`) ?? {});
    return parsed.success ? parsed.data : storedRemote.parse({});
  }

  private secretFromEnvironment(): string | null {
    return this.env.DONATION_DESK_CLIENT_SECRET || null;
  }

  private secretOf(
    id: RemoteEnvironmentId,
    stored: StoredRemote,
  ): { value: string | null; source: 'none' | 'encrypted' | 'session' | 'environment' } {
    const session = this.sessionSecrets.get(id);
    if (session) return { value: session, source: 'session' };
    if (stored.sealedSecret && this.secretBox?.isStrong()) {
      try {
        return { value: this.secretBox.decrypt(stored.sealedSecret), source: 'encrypted' };
      } catch {
        return { value: null, source: 'none' };
      }
    }
    const fromEnv = this.secretFromEnvironment();
    if (fromEnv) return { value: fromEnv, source: 'environment' };
    return { value: null, source: 'none' };
  }

  /** Full configuration of a remote environment, secret included: for main-side use only. */
  remoteConfig(id: RemoteEnvironmentId): RemoteConfig {
    const stored = this.remote(id);
    const preset = presetVariables[id];
    const pick = (saved: string, variable: string) => saved || (variable ? (this.env[variable] ?? '') : '');
    const run = this.runOverrides;
    return {
      id,
      baseUrl: run.baseUrl || pick(stored.addresses.baseUrl, preset.base),
      tokenUrl: run.tokenUrl || pick(stored.addresses.tokenUrl, preset.token),
      programDomain: pick(stored.addresses.programDomain, preset.program),
      clientId: stored.clientId || this.env.DONATION_DESK_CLIENT_ID || '',
      clientSecret: this.secretOf(id, stored).value,
    };
  }

  private teamDatabase(): StoredTeamDatabase {
    const parsed = storedTeamDatabase.safeParse(this.store.get('teamDatabase') ?? {});
    return parsed.success ? parsed.data : storedTeamDatabase.parse({});
  }

  private teamPassword(stored: StoredTeamDatabase): string | null {
    if (this.sessionTeamPassword) return this.sessionTeamPassword;
    if (stored.sealedPassword && this.secretBox?.isStrong()) {
      try {
        return this.secretBox.decrypt(stored.sealedPassword);
      } catch {
        return null;
      }
    }
    return null;
  }

  /**
   * The team database address saved in Settings, password included: for main-side use only (the
   * connection). DONATION_DESK_DATABASE_URL, which wins over it, is read by the connection itself.
   */
  teamDatabaseUrl(): string | null {
    const stored = this.teamDatabase();
    if (!stored.address) return null;
    return joinTeamAddress(stored.address, this.teamPassword(stored));
  }

  /**
   * The address to try for Settings' Test: what is typed, with the stored password when none is typed
   * and the login, server and database are the saved ones.
   */
  teamDatabaseUrlToTest(address: string, password?: string): string {
    const typed = splitTeamAddress(address);
    if (password !== undefined && password !== '') return joinTeamAddress(typed.address, password);
    if (typed.password) return joinTeamAddress(typed.address, typed.password);
    const stored = this.teamDatabase();
    const storedPassword =
      stored.address && sameTeamLogin(stored.address, typed.address) ? this.teamPassword(stored) : null;
    return joinTeamAddress(typed.address, storedPassword);
  }

  publicTeamDatabase(): TeamDatabaseSettings {
    const stored = this.teamDatabase();
    const fromEnvironment = this.env[TEAM_DATABASE_VARIABLE]?.trim();
    const source = fromEnvironment ? 'environment' : stored.address ? 'settings' : 'none';
    const inForce = fromEnvironment || stored.address;
    return {
      address: stored.address,
      server: inForce ? teamServerOf(inForce) : null,
      passwordStored: this.teamPassword(stored) !== null,
      source,
      passwordNote: this.secretsPersist
        ? 'The password is encrypted with your operating system’s key store.'
        : 'On this computer the password is kept for this session only and never written to disk (or give the whole address in DONATION_DESK_DATABASE_URL).',
    };
  }

  private updateTeamDatabase(update: TeamDatabaseUpdate): void {
    if (update === null) {
      this.sessionTeamPassword = null;
      this.store.delete('teamDatabase');
      return;
    }
    const stored = this.teamDatabase();
    const typed = splitTeamAddress(update.address);
    // A password typed beside the address wins over one typed inside it; none keeps the stored one
    // as long as it is for the same login on the same server.
    const newPassword = update.password !== undefined ? update.password : typed.password;
    const keep =
      newPassword === null && stored.address !== '' && sameTeamLogin(stored.address, typed.address);
    const next: StoredTeamDatabase = { address: typed.address };
    if (keep) {
      if (stored.sealedPassword) next.sealedPassword = stored.sealedPassword;
    } else {
      this.sessionTeamPassword = null;
      if (newPassword) {
        if (this.secretBox?.isStrong()) next.sealedPassword = this.secretBox.encrypt(newPassword);
        else this.sessionTeamPassword = newPassword;
      }
    }
    this.store.set('teamDatabase', next);
  }

  publicSettings(): PublicSettings {
    const remotes = Object.fromEntries(
      remoteEnvironmentIds.map((id) => {
        const stored = this.remote(id);
        const config = this.remoteConfig(id);
        const secret = this.secretOf(id, stored);
        return [
          id,
          {
            addresses: {
              baseUrl: config.baseUrl,
              tokenUrl: config.tokenUrl,
              programDomain: config.programDomain,
            },
            clientId: config.clientId,
            hasClientSecret: secret.value !== null,
            secretSource: secret.source,
          },
        ];
      }),
    ) as PublicSettings['remotes'];
    const strong = this.secretsPersist;
    const backend = this.secretBox?.backend();
    return {
      environment: this.environment(),
      remotes,
      secretStorage: strong ? 'encrypted' : 'session-only',
      secretStorageNote: strong
        ? 'Client secrets are encrypted with your operating system’s key store.'
        : this.secretBox
          ? `This computer offers only unprotected storage (${backend ?? 'unknown'}), so client secrets are kept for this session only and never written to disk.`
          : 'In this mode client secrets are kept for this session only (or read from DONATION_DESK_CLIENT_SECRET) and never written to disk.',
      firstRunDone: this.store.get('firstRunDone') === true,
      teamDatabase: this.publicTeamDatabase(),
    };
  }

  /**
   * Refuses, before anything is written, a save that would leave a service environment in force
   * that cannot work (no address, no credentials): choosing it, or emptying the one in force.
   */
  private requireUsable(update: SettingsUpdate): void {
    const target = update.environment ?? (update.remote ? this.environment() : undefined);
    if (!target || target === 'offline') return;
    if (!update.environment && update.remote?.id !== target) return;
    const now = this.remoteConfig(target);
    const typed = update.remote?.id === target ? update.remote : undefined;
    const missing = missingParts({
      baseUrl: typed?.addresses ? this.runOverrides.baseUrl || typed.addresses.baseUrl : now.baseUrl,
      tokenUrl: typed?.addresses ? this.runOverrides.tokenUrl || typed.addresses.tokenUrl : now.tokenUrl,
      clientId:
        typed?.clientId !== undefined
          ? typed.clientId || this.env.DONATION_DESK_CLIENT_ID || ''
          : now.clientId,
      clientSecret:
        typed?.clientSecret !== undefined
          ? typed.clientSecret || this.secretFromEnvironment()
          : now.clientSecret,
    });
    if (missing.length) {
      throw new DeskFailure(
        'NOT_CONFIGURED',
        `${environmentLabels[target]} cannot be used yet: enter its ${missing.join(', ')} first, or choose the Offline sandbox. Nothing was saved.`,
        { missing },
      );
    }
  }

  update(update: SettingsUpdate): PublicSettings {
    this.requireUsable(update);
    if (update.environment) {
      this.store.set('environment', update.environment);
      delete this.runOverrides.environment;
    }
    if (update.firstRunDone !== undefined) this.store.set('firstRunDone', update.firstRunDone);
    if (update.teamDatabase !== undefined) this.updateTeamDatabase(update.teamDatabase);
    if (update.remote) {
      const { id } = update.remote;
      const stored = this.remote(id);
      if (update.remote.addresses) stored.addresses = update.remote.addresses;
      if (update.remote.clientId !== undefined) stored.clientId = update.remote.clientId;
      if (update.remote.clientSecret !== undefined) {
        const secret = update.remote.clientSecret;
        this.sessionSecrets.delete(id);
        delete stored.sealedSecret;
        if (secret) {
          if (this.secretBox?.isStrong()) stored.sealedSecret = this.secretBox.encrypt(secret);
          else this.sessionSecrets.set(id, secret);
        }
      }
      this.store.set(`remotes.${id}`, stored);
    }
    return this.publicSettings();
  }
}
