import { z } from 'zod';
import {
  remoteEnvironmentIds,
  type EnvironmentId,
  type PublicSettings,
  type RemoteEnvironmentId,
  type SettingsUpdate,
  environmentIdSchema,
} from '../../../shared/contract';
import type { SecretBox } from '../platform';
import type { KeyValueStore } from './keyValueStore';

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

export interface RemoteConfig {
  id: RemoteEnvironmentId;
  baseUrl: string;
  tokenUrl: string;
  programDomain: string;
  clientId: string;
  clientSecret: string | null;
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
    };
  }

  update(update: SettingsUpdate): PublicSettings {
    if (update.environment) {
      this.store.set('environment', update.environment);
      delete this.runOverrides.environment;
    }
    if (update.firstRunDone !== undefined) this.store.set('firstRunDone', update.firstRunDone);
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
