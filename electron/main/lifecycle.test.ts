import { beforeEach, describe, expect, it, vi } from 'vitest';
import { channelNames } from '../../shared/contract';

type Listener = (...args: unknown[]) => void;

const h = vi.hoisted(() => {
  const appListeners = new Map<string, Listener>();
  const windows: Array<{ options: Record<string, unknown>; listeners: Map<string, Listener> }> = [];
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  const runtime = {
    services: {},
    events: { subscribe: () => () => undefined },
    environments: { describe: async () => ({ programUrl: 'https://giving.example.com' }) },
    close: async () => undefined,
  };
  return {
    appListeners,
    windows,
    ready,
    resolveReady: () => resolveReady(),
    lock: true,
    runtime,
    handled: [] as string[],
    quit: { calls: 0 },
  };
});

vi.mock('electron', () => {
  class BrowserWindow {
    static getAllWindows = () => [];
    listeners = new Map<string, Listener>();
    webContents = { isDestroyed: () => false, send: () => undefined };
    constructor(options: Record<string, unknown>) {
      h.windows.push({ options, listeners: this.listeners });
    }
    once(event: string, listener: Listener) {
      this.listeners.set(event, listener);
    }
    on(event: string, listener: Listener) {
      this.listeners.set(event, listener);
    }
    isDestroyed = () => false;
    loadFile = async () => undefined;
    loadURL = async () => undefined;
  }
  return {
    app: {
      isPackaged: true,
      getPath: () => '/home/someone/.config/Donation Desk',
      setPath: vi.fn(),
      getAppPath: () => '/opt/desk/resources/app.asar',
      getVersion: () => '0.1.0',
      enableSandbox: vi.fn(),
      requestSingleInstanceLock: () => h.lock,
      setAppUserModelId: vi.fn(),
      on: (event: string, listener: Listener) => h.appListeners.set(event, listener),
      whenReady: () => h.ready,
      quit: () => {
        h.quit.calls += 1;
      },
      exit: vi.fn(),
    },
    BrowserWindow,
    dialog: { showErrorBox: vi.fn() },
    ipcMain: { handle: (channel: string) => h.handled.push(channel), removeHandler: vi.fn() },
    session: {
      defaultSession: {
        setPermissionRequestHandler: vi.fn(),
        setPermissionCheckHandler: vi.fn(),
        setDevicePermissionHandler: vi.fn(),
        webRequest: { onHeadersReceived: vi.fn() },
      },
    },
    safeStorage: {},
    shell: { openExternal: vi.fn() },
    Notification: class {},
  };
});

vi.mock('../services', () => ({ startDesk: vi.fn(async () => h.runtime) }));
vi.mock('./settingsStore', () => ({ openElectronSettingsStore: () => ({}) }));

// Only Electron sets this; the packaged assets folder is found from it.
Object.assign(process, { resourcesPath: '/opt/desk/resources' });

const { app } = await import('electron');
const { runDesktopApp } = await import('./lifecycle');

describe('runDesktopApp', () => {
  beforeEach(() => {
    h.appListeners.clear();
    h.windows.length = 0;
    h.handled.length = 0;
    h.quit.calls = 0;
  });

  it('quits at once when another instance holds the lock', () => {
    h.lock = false;
    runDesktopApp('/opt/desk/resources/app.asar/out/main');
    expect(h.quit.calls).toBe(1);
    expect(h.appListeners.has('ready')).toBe(false);
    expect(h.appListeners.has('web-contents-created')).toBe(false);
    h.lock = true;
  });

  it('sandboxes every renderer, registers every channel, then opens one window', async () => {
    runDesktopApp('/opt/desk/resources/app.asar/out/main');
    expect(app.enableSandbox).toHaveBeenCalled();
    expect(h.appListeners.has('web-contents-created')).toBe(true);
    expect(h.windows).toHaveLength(0);
    h.resolveReady();
    await vi.waitFor(() => expect(h.windows).toHaveLength(1));
    expect([...h.handled].sort()).toEqual([...channelNames].sort());
    expect(h.windows[0]!.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
  });

  it('stops the services before the process ends', async () => {
    const close = vi.spyOn(h.runtime, 'close');
    runDesktopApp('/opt/desk/resources/app.asar/out/main');
    await vi.waitFor(() => expect(h.windows).toHaveLength(1));
    const preventDefault = vi.fn();
    h.appListeners.get('will-quit')!({ preventDefault });
    expect(preventDefault).toHaveBeenCalled();
    expect(close).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(h.quit.calls).toBe(1));
    // The second will-quit (from that app.quit) goes through.
    const again = vi.fn();
    h.appListeners.get('will-quit')!({ preventDefault: again });
    expect(again).not.toHaveBeenCalled();
  });
});
