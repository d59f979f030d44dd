import ElectronStore from 'electron-store';
import type { KeyValueStore } from '../services/settings/keyValueStore';

/**
 * Settings through electron-store, in the same `settings.json` of the data folder that browser mode
 * and the CLI open with conf, so every mode of the app sees the same choices.
 */
export function openElectronSettingsStore(dataDir: string): KeyValueStore {
  const store = new ElectronStore<Record<string, unknown>>({
    cwd: dataDir,
    name: 'settings',
    // A damaged file is reported by the settings service, never silently replaced by defaults.
    clearInvalidConfig: false,
  });
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
  };
}
