import { app, BrowserWindow, dialog, ipcMain, session } from 'electron';
import { join } from 'node:path';
import { startDesk, type DeskRuntime } from '../services';
import { DeskFailure } from '../../shared/result';
import { createSenderCheck, forwardEvents, registerIpcHandlers } from './ipc';
import { assetsDirFor, createElectronPlatform, electronDataDir, offerExternalLink } from './platform';
import { appLocations, isOwnRendererUrl } from './rendererLocation';
import { applySessionSecurity, hardenWebContents } from './security';
import { openElectronSettingsStore } from './settingsStore';
import { createMainWindow, loadRenderer } from './window';

export const APP_USER_MODEL_ID = 'com.donationdesk.app';

/** How long quitting waits for the services to stop (pollers, ledger writes) before giving up. */
const CLOSE_TIMEOUT_MS = 5_000;

function logUnexpected(channel: string, error: unknown): void {
  // Only the kind of failure: messages and stacks may carry addresses or credentials.
  const kind = error instanceof Error ? error.name : typeof error;
  console.error(`[donation-desk] unexpected failure in "${channel}" (${kind})`);
}

/** Starts the desktop app. `mainDir` is the folder of the built main bundle (out/main). */
export function runDesktopApp(mainDir: string): void {
  const locations = appLocations(mainDir, app.isPackaged, process.env);
  const { dataDir, overridden } = electronDataDir(process.argv, process.env, app.getPath('userData'));
  if (overridden) {
    // Chromium's own profile (and the single-instance lock, which is tied to it) follows the data
    // folder, so a test or a second workspace run with --data-dir never touches the real profile.
    app.setPath('userData', join(dataDir, 'electron-profile'));
  }

  // Every renderer sandboxed, whatever a future window forgets to ask for.
  app.enableSandbox();

  if (!app.requestSingleInstanceLock()) {
    // Another Donation Desk owns this data folder; it brings its window forward (second-instance).
    app.quit();
    return;
  }

  let window: BrowserWindow | null = null;
  let runtime: DeskRuntime | null = null;
  // The program site depends on the environment chosen in Settings, so it is read on each use.
  const programUrl = async (): Promise<string | null> =>
    runtime ? (await runtime.environments.describe()).programUrl || null : null;
  const ownRenderer = (url: string) => isOwnRendererUrl(url, locations);
  const ownContents = () => (window && !window.isDestroyed() ? window.webContents : null);

  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);

  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, {
      isOwnRendererUrl: ownRenderer,
      offerExternalLink: (url) => offerExternalLink(url, programUrl),
    });
  });

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  const openWindow = () => {
    const icon =
      process.platform === 'linux'
        ? join(assetsDirFor(app.isPackaged, process.resourcesPath, app.getAppPath()), 'icon.png')
        : undefined;
    window = createMainWindow(locations, icon);
    window.on('closed', () => {
      window = null;
    });
    loadRenderer(window, locations).catch(() => {
      console.error('[donation-desk] the window could not load its page');
    });
  };

  const start = async () => {
    applySessionSecurity(session.defaultSession);
    const platform = createElectronPlatform({ dataDir, programUrl, mainDir });
    runtime = await startDesk(platform, { settingsStore: openElectronSettingsStore(dataDir) });
    // Handlers first, so the page can call as soon as it loads.
    registerIpcHandlers(
      ipcMain,
      runtime.services,
      createSenderCheck(ownContents, ownRenderer),
      logUnexpected,
    );
    forwardEvents(runtime.events, ownContents);
    openWindow();
  };

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      const detail =
        error instanceof DeskFailure
          ? error.message
          : 'Something went wrong while starting. Check that the data folder can be written to.';
      console.error(
        `[donation-desk] start-up failed (${error instanceof Error ? error.name : typeof error})`,
      );
      // The full error only in development: a packaged app's log could be shared with anyone.
      if (!app.isPackaged) console.error(error);
      dialog.showErrorBox('Donation Desk could not start', `${detail}\n\nData folder: ${dataDir}`);
      app.exit(1);
    });

  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open opens one again.
    if (runtime && BrowserWindow.getAllWindows().length === 0) openWindow();
  });

  app.on('window-all-closed', () => {
    // macOS apps stay running without windows; elsewhere closing the window ends the app.
    if (process.platform !== 'darwin') app.quit();
  });

  let closed = false;
  let closing = false;
  app.on('will-quit', (event) => {
    if (closed || !runtime) return;
    // Let pollers stop and pending ledger writes finish before the process ends.
    event.preventDefault();
    if (closing) return;
    closing = true;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS));
    Promise.race([runtime.close(), timeout])
      .catch(() => console.error('[donation-desk] services did not stop cleanly'))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}
