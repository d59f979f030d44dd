import { describe, expect, it, vi } from 'vitest';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { channelNames, EVENT_CHANNEL, type Services } from '../../shared/contract';
import { EventBus } from '../services/core/eventBus';
import { createSenderCheck, forwardEvents, registerIpcHandlers } from './ipc';

vi.mock('electron', () => ({}));

const OWN_URL = 'file:///app/out/renderer/index.html';

type Handler = (event: IpcMainInvokeEvent, input: unknown) => Promise<unknown>;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: vi.fn((channel: string, handler: Handler) => {
      handlers.set(channel, handler);
    }),
    removeHandler: vi.fn((channel: string) => {
      handlers.delete(channel);
    }),
  };
}

function fakeServices() {
  const info = {
    name: 'Donation Desk',
    version: '0.1.0',
    mode: 'electron',
    dataDir: '/data',
    environment: {
      id: 'offline',
      label: 'Offline sandbox',
      baseUrl: 'http://127.0.0.1:1/api',
      tokenUrl: 'http://127.0.0.1:1/token',
      programUrl: 'http://127.0.0.1:1',
      emulated: true,
    },
  };
  const services = Object.fromEntries(channelNames.map((c) => [c, vi.fn(async () => info)]));
  return services as unknown as Services & Record<string, ReturnType<typeof vi.fn>>;
}

function setup() {
  const contents = { isDestroyed: () => false, send: vi.fn() } as unknown as WebContents;
  const mainFrame = { url: OWN_URL, parent: null };
  const ipcMain = fakeIpcMain();
  const services = fakeServices();
  const onUnexpected = vi.fn();
  const check = createSenderCheck(
    () => contents,
    (url) => url === OWN_URL,
  );
  const unregister = registerIpcHandlers(ipcMain, services, check, onUnexpected);
  const trusted = { sender: contents, senderFrame: mainFrame } as unknown as IpcMainInvokeEvent;
  return { contents, mainFrame, ipcMain, services, unregister, trusted };
}

describe('registerIpcHandlers', () => {
  it('registers exactly one handler for every channel of the contract', () => {
    const { ipcMain } = setup();
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...channelNames].sort());
    expect(ipcMain.handle).toHaveBeenCalledTimes(channelNames.length);
  });

  it('dispatches a call from our own window to the service', async () => {
    const { ipcMain, services, trusted } = setup();
    const result = await ipcMain.handlers.get('app.info')!(trusted, {});
    expect(result).toMatchObject({ ok: true, value: { name: 'Donation Desk' } });
    expect(services['app.info']).toHaveBeenCalledWith({}, { transport: 'ipc' });
  });

  it('returns invalid input as a value, without calling the service', async () => {
    const { ipcMain, services, trusted } = setup();
    const result = await ipcMain.handlers.get('external.open')!(trusted, { url: 42 });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(services['external.open']).not.toHaveBeenCalled();
  });

  const foreign: Array<[string, (s: ReturnType<typeof setup>) => unknown]> = [
    ['another webContents', (s) => ({ sender: { isDestroyed: () => false }, senderFrame: s.mainFrame })],
    ['a frame that is gone', (s) => ({ sender: s.contents, senderFrame: null })],
    [
      'an iframe inside our page',
      (s) => ({ sender: s.contents, senderFrame: { url: OWN_URL, parent: s.mainFrame } }),
    ],
    [
      'a page from elsewhere',
      (s) => ({ sender: s.contents, senderFrame: { url: 'https://evil.example', parent: null } }),
    ],
    [
      'another local file',
      (s) => ({ sender: s.contents, senderFrame: { url: 'file:///tmp/x.html', parent: null } }),
    ],
  ];

  it.each(foreign)('refuses %s and never calls the service', async (_name, makeEvent) => {
    const s = setup();
    for (const channel of channelNames) {
      const result = await s.ipcMain.handlers.get(channel)!(makeEvent(s) as IpcMainInvokeEvent, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
      expect(s.services[channel]).not.toHaveBeenCalled();
    }
  });

  it('refuses every call once our window is gone', async () => {
    const ipcMain = fakeIpcMain();
    const services = fakeServices();
    registerIpcHandlers(
      ipcMain,
      services,
      createSenderCheck(
        () => null,
        () => true,
      ),
      vi.fn(),
    );
    const result = await ipcMain.handlers.get('settings.get')!(
      { sender: {}, senderFrame: { url: OWN_URL, parent: null } } as unknown as IpcMainInvokeEvent,
      {},
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(services['settings.get']).not.toHaveBeenCalled();
  });

  it('removes every handler it registered', () => {
    const { ipcMain, unregister } = setup();
    unregister();
    expect(ipcMain.handlers.size).toBe(0);
  });
});

describe('forwardEvents', () => {
  it('sends each event to the window on the one event channel', () => {
    const bus = new EventBus();
    const contents = { isDestroyed: () => false, send: vi.fn() } as unknown as WebContents;
    const stop = forwardEvents(bus, () => contents);
    bus.emit('settings.changed', { environment: 'sandbox' });
    expect(contents.send).toHaveBeenCalledWith(EVENT_CHANNEL, {
      name: 'settings.changed',
      payload: { environment: 'sandbox' },
    });
    stop();
    bus.emit('settings.changed', { environment: 'offline' });
    expect(contents.send).toHaveBeenCalledTimes(1);
  });

  it('drops events while there is no window', () => {
    const bus = new EventBus();
    expect(() => {
      forwardEvents(bus, () => null);
      bus.emit('settings.changed', { environment: 'sandbox' });
    }).not.toThrow();
  });
});
