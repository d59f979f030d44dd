import { beforeEach, describe, expect, it, vi } from 'vitest';
import { channelNames, EVENT_CHANNEL } from '../../shared/contract';

type Handler = (event: unknown, message: unknown) => void;

const electron = vi.hoisted(() => {
  const handlers = new Set<Handler>();
  const exposed = new Map<string, unknown>();
  return {
    handlers,
    exposed,
    ipcRenderer: {
      invoke: vi.fn(async (_channel: string, _input?: unknown) => ({ ok: true, value: {} })),
      on: vi.fn((_channel: string, handler: Handler) => handlers.add(handler)),
      removeListener: vi.fn((_channel: string, handler: Handler) => handlers.delete(handler)),
    },
    contextBridge: {
      exposeInMainWorld: vi.fn((key: string, api: unknown) => exposed.set(key, api)),
    },
  };
});

vi.mock('electron', () => ({ ipcRenderer: electron.ipcRenderer, contextBridge: electron.contextBridge }));

await import('./index');

type Api = Record<string, (...args: unknown[]) => unknown>;
const desk = () => electron.exposed.get('desk') as Api;
const push = (message: unknown) => {
  for (const handler of electron.handlers) handler({ sender: 'secret ipc event' }, message);
};

describe('preload', () => {
  beforeEach(() => {
    electron.ipcRenderer.invoke.mockClear();
  });

  it('exposes only window.desk', () => {
    expect([...electron.exposed.keys()]).toEqual(['desk']);
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledOnce();
  });

  it('exposes exactly one function per contract channel plus on, and nothing else', () => {
    const api = desk();
    expect(Object.keys(api).sort()).toEqual([...channelNames, 'on'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    expect(Object.values(api)).not.toContain(electron.ipcRenderer);
    expect(Object.values(api)).not.toContain(electron.ipcRenderer.invoke);
  });

  it('invokes the channel of the same name with the input', async () => {
    for (const channel of channelNames) {
      await desk()[channel]!({ some: 'input' });
      expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(channel, { some: 'input' });
    }
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledTimes(channelNames.length);
  });

  it('delivers only the named event, only its payload, until unsubscribed', () => {
    const listener = vi.fn();
    const unsubscribe = desk().on!('job.status', listener) as () => void;
    expect(electron.ipcRenderer.on).toHaveBeenCalledWith(EVENT_CHANNEL, expect.any(Function));

    push({ name: 'job.progress', payload: { jobId: '1' } });
    push('garbage');
    push(null);
    push({ name: 'job.status', payload: { jobId: '1', status: 'running' } });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith({ jobId: '1', status: 'running' });

    unsubscribe();
    push({ name: 'job.status', payload: { jobId: '2', status: 'failed' } });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(electron.handlers.size).toBe(0);
  });

  it('refuses unknown events and non-function listeners', () => {
    expect(() => desk().on!('not.an.event', () => undefined)).toThrow(TypeError);
    expect(() => desk().on!('job.status', 'nope')).toThrow(TypeError);
  });
});
