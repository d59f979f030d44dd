import { app, BrowserWindow, dialog, Notification, safeStorage, shell } from 'electron';
import { join, resolve } from 'node:path';
import { resolveDataDir } from '../services/core/dataDir';
import type { PlatformAdapter, SecretBox } from '../services/core/platform';
import { isAllowedExternalUrl } from '../services/core/externalUrl';
import { DeskFailure } from '../../shared/result';
import { osIdentity } from '../services/core/identity';
import { apartFilesFor, utilityApartProcess } from './apartProcess';

/**
 * Where settings, workspaces and the ledger live: `--data-dir`, then `DONATION_DESK_HOME`, then
 * Electron's user-data folder (the same rule as the bridge and the CLI, from the services).
 */
export function electronDataDir(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  userData: string,
): { dataDir: string; overridden: boolean } {
  const dataDir = resolveDataDir(argv, env, userData);
  return { dataDir, overridden: dataDir !== resolve(userData) };
}

/** The part of Electron's safeStorage the secret box uses (so tests can pass a fake). */
export type SafeStorageLike = Pick<
  typeof safeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
>;

/** Linux backends that protect the key with the user's login keyring or wallet. */
const STRONG_LINUX_BACKENDS = new Set(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);

export function createSecretBox(storage: SafeStorageLike, platform: NodeJS.Platform): SecretBox {
  const backend = (): string => {
    if (platform === 'win32') return 'dpapi';
    if (platform === 'darwin') return 'keychain';
    return storage.getSelectedStorageBackend();
  };
  // On Linux, `basic_text` "encrypts" with a hard-coded key: anyone with the file has the secret.
  // An unknown backend is treated the same way, because we cannot say it is better.
  const isStrong = (): boolean => {
    if (!storage.isEncryptionAvailable()) return false;
    if (platform === 'win32' || platform === 'darwin') return true;
    return STRONG_LINUX_BACKENDS.has(backend());
  };
  return {
    backend,
    isStrong,
    encrypt(plain) {
      if (!isStrong()) {
        throw new DeskFailure(
          'SECRET_STORAGE_WEAK',
          'This computer offers no protected storage for secrets, so the client secret is kept only until the app closes.',
        );
      }
      return storage.encryptString(plain).toString('base64');
    },
    decrypt(sealed) {
      return storage.decryptString(Buffer.from(sealed, 'base64'));
    },
  };
}

/** Folder with the sample spreadsheet and icons: shipped beside app.asar, or the repository's in development. */
export function assetsDirFor(isPackaged: boolean, resourcesPath: string, appPath: string): string {
  return isPackaged ? join(resourcesPath, 'assets') : join(appPath, 'assets');
}

export interface ElectronPlatformOptions {
  dataDir: string;
  /** The current program page address, read when needed (the environment can change at any time). */
  programUrl: () => Promise<string | null>;
  /** The folder of the built main bundle (out/main): the apart programs are found from it in development. */
  mainDir: string;
}

export function createElectronPlatform(options: ElectronPlatformOptions): PlatformAdapter {
  return {
    mode: 'electron',
    dataDir: options.dataDir,
    appVersion: app.getVersion(),
    assetsDir: assetsDirFor(app.isPackaged, process.resourcesPath, app.getAppPath()),
    secretBox: createSecretBox(safeStorage, process.platform),
    identity: osIdentity(),
    openExternal: (url) => openExternalIfAllowed(url, options.programUrl),
    notify(title, body) {
      if (Notification.isSupported()) new Notification({ title, body }).show();
    },
    chooseSaveFile: (choice) => chooseSaveFile(choice, options.dataDir),
    launchApartProcess: utilityApartProcess(
      apartFilesFor(app.isPackaged, process.resourcesPath, options.mainDir),
    ),
  };
}

/** The system's save dialog, over the focused window; null when the person cancels. */
export async function chooseSaveFile(
  choice: { title: string; defaultName: string; extension: string },
  dataDir: string,
): Promise<string | null> {
  const window = BrowserWindow.getFocusedWindow();
  const options = {
    title: choice.title,
    defaultPath: join(app.getPath('documents') || dataDir, choice.defaultName),
    filters: [{ name: 'Database backup', extensions: [choice.extension] }],
    properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
  };
  const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  return result.canceled || !result.filePath ? null : result.filePath;
}

/**
 * The one way this app hands an address to the system browser. The services check the allowlist
 * too; checking again here keeps the rule in force whoever calls.
 */
export async function openExternalIfAllowed(
  url: string,
  programUrl: () => Promise<string | null>,
): Promise<void> {
  const program = await programUrl();
  if (!program || !isAllowedExternalUrl(url, program)) {
    throw new DeskFailure(
      'EXTERNAL_URL_REFUSED',
      'That address is not on the giving program’s site, so it was not opened.',
    );
  }
  // The scanner flags every openExternal with a computed address; this one is reviewed: the address
  // has just passed the allowlist (https on the program domain only).
  await shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK
}

/** For links the page tries to follow: open when allowed, otherwise drop silently (never throws). */
export function offerExternalLink(url: string, programUrl: () => Promise<string | null>): void {
  openExternalIfAllowed(url, programUrl).catch(() => undefined);
}
