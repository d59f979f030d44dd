import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_FOLDER = 'Donation Desk';

/** The folder Electron would use as userData, so every mode of the app shares one data folder. */
export function defaultUserDataDir(platform: NodeJS.Platform = process.platform, env = process.env): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER);
}

/** `--data-dir DIR` / `--data-dir=DIR`, else DONATION_DESK_HOME, else the fallback. Always absolute. */
export function resolveDataDir(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  fallback: string,
): string {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--data-dir=')) return resolve(arg.slice('--data-dir='.length));
    if (arg === '--data-dir' && argv[i + 1]) return resolve(argv[i + 1] as string);
  }
  if (env.DONATION_DESK_HOME) return resolve(env.DONATION_DESK_HOME);
  return resolve(fallback);
}
