import {
  programUrlOf,
  environmentLabels,
  type Addresses,
  type EnvironmentId,
  type EnvironmentInfo,
} from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import type { RunningEmulator } from '../../../emulator/server';
import { missingParts, type RemoteConfig, type SettingsService } from '../settings/settingsService';
import { MaintenanceWatch } from '../api/maintenanceWatch';
import { TokenClient } from '../api/tokenClient';
import type { ResolvedEnvironment } from '../api/resolvedEnvironment';

/**
 * Starts the Offline sandbox. `whenGone` is called if it ends by itself (its process stopped): the
 * next use then starts it again.
 */
export type StartOfflineService = (whenGone?: () => void) => Promise<RunningEmulator>;

/**
 * Resolves the chosen environment to addresses and a token client. The Offline sandbox is the
 * built-in emulator, started on free loopback ports the first time it is needed (in a process of
 * its own where the host can start one: offlineApart.ts).
 */
export class Environments {
  private offline: Promise<RunningEmulator> | null = null;
  private cache: { key: string; resolved: ResolvedEnvironment } | null = null;

  constructor(
    private readonly settings: SettingsService,
    private readonly startOffline: StartOfflineService,
    private readonly fetchImpl: typeof fetch = fetch,
    /** Shared by every client of the environment in force (see MaintenanceWatch). */
    readonly maintenance: MaintenanceWatch = new MaintenanceWatch(),
  ) {}

  offlineService(): Promise<RunningEmulator> {
    if (!this.offline) {
      const started = this.startOffline(() => {
        if (this.offline === started) this.offline = null;
      }).catch((e: unknown) => {
        if (this.offline === started) this.offline = null;
        throw e;
      });
      this.offline = started;
    }
    return this.offline;
  }

  async resolve(id: EnvironmentId = this.settings.environment()): Promise<ResolvedEnvironment> {
    if (id === 'offline') {
      const emulator = await this.offlineService();
      return this.remember(`offline|${emulator.apiBaseUrl}`, () => ({
        info: {
          id,
          label: environmentLabels[id],
          baseUrl: emulator.apiBaseUrl,
          tokenUrl: emulator.tokenUrl,
          programUrl: emulator.programUrl,
          emulated: true,
          timeScale: emulator.timeScale,
        },
        tokens: new TokenClient(
          { tokenUrl: emulator.tokenUrl, clientId: emulator.clientId, clientSecret: emulator.clientSecret },
          this.fetchImpl,
          Date.now,
          this.maintenance,
        ),
        maintenance: this.maintenance,
      }));
    }
    const remote = this.settings.remoteConfig(id);
    this.requireComplete(id, remote);
    const key = [id, remote.baseUrl, remote.tokenUrl, remote.clientId, remote.clientSecret].join('|');
    return this.remember(key, () => ({
      info: {
        id,
        label: environmentLabels[id],
        baseUrl: remote.baseUrl.replace(/\/+$/, ''),
        tokenUrl: remote.tokenUrl,
        programUrl: programUrlOf(remote.programDomain),
        emulated: false,
      },
      tokens: new TokenClient(
        { tokenUrl: remote.tokenUrl, clientId: remote.clientId, clientSecret: remote.clientSecret ?? '' },
        this.fetchImpl,
        Date.now,
        this.maintenance,
      ),
      maintenance: this.maintenance,
    }));
  }

  /**
   * A token client of its own for trying an environment, never the one in use: what is typed in
   * Settings (`draft`, an empty secret meaning the stored one) or else what is saved. Nothing is
   * saved or cached, so a test never changes the environment in force or its token.
   */
  async probe(
    id: EnvironmentId,
    draft?: { addresses: Addresses; clientId: string; clientSecret?: string },
  ): Promise<{ label: string; tokens: TokenClient }> {
    const label = environmentLabels[id];
    if (id === 'offline') {
      const emulator = await this.offlineService();
      const config = {
        tokenUrl: emulator.tokenUrl,
        clientId: emulator.clientId,
        clientSecret: emulator.clientSecret,
      };
      return { label, tokens: new TokenClient(config, this.fetchImpl) };
    }
    const saved = this.settings.remoteConfig(id);
    const config: RemoteConfig = draft
      ? {
          ...saved,
          baseUrl: draft.addresses.baseUrl,
          tokenUrl: draft.addresses.tokenUrl,
          programDomain: draft.addresses.programDomain,
          clientId: draft.clientId,
          clientSecret: draft.clientSecret || saved.clientSecret,
        }
      : saved;
    this.requireComplete(id, config);
    const tokens = new TokenClient(
      { tokenUrl: config.tokenUrl, clientId: config.clientId, clientSecret: config.clientSecret ?? '' },
      this.fetchImpl,
    );
    return { label, tokens };
  }

  private requireComplete(id: EnvironmentId, remote: RemoteConfig): void {
    const missing = missingParts(remote);
    if (missing.length) {
      throw new DeskFailure(
        'NOT_CONFIGURED',
        `${environmentLabels[id]} is not set up yet: enter the ${missing.join(', ')} in Settings.`,
        { missing },
      );
    }
  }

  /** The environment's description without starting anything or requiring credentials. */
  async describe(id: EnvironmentId = this.settings.environment()): Promise<EnvironmentInfo> {
    if (id === 'offline') return (await this.resolve('offline')).info;
    const remote = this.settings.remoteConfig(id);
    return {
      id,
      label: environmentLabels[id],
      baseUrl: remote.baseUrl,
      tokenUrl: remote.tokenUrl,
      programUrl: programUrlOf(remote.programDomain),
      emulated: false,
    };
  }

  private remember(key: string, make: () => ResolvedEnvironment): ResolvedEnvironment {
    // A token client is kept while its environment's addresses and credentials stay the same.
    if (this.cache?.key !== key) this.cache = { key, resolved: make() };
    return this.cache.resolved;
  }

  async close(): Promise<void> {
    const offline = this.offline;
    this.offline = null;
    if (offline) await (await offline.catch(() => null))?.close();
  }
}
