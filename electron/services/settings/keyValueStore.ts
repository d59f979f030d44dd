import Conf from 'conf';

/** The part of electron-store / conf the settings need; electron-store is a `Conf` subclass. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/**
 * The settings file in the data directory. In Electron the main process passes an electron-store
 * instance instead; both write the same `settings.json` atomically through conf.
 */
export function openSettingsFile(dataDir: string): KeyValueStore {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: 'settings',
    projectName: 'donation-desk',
    clearInvalidConfig: false,
  });
  return {
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    delete: (key) => conf.delete(key),
  };
}
