// Runs sandboxed, in an isolated world: the page gets `window.desk` and nothing else. ipcRenderer
// itself is never exposed, so the page can reach only the contract's channels.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelNames, EVENT_CHANNEL, eventNames, type DeskApi } from '../../shared/contract';

function isEventMessage(message: unknown): message is { name: string; payload: unknown } {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { name?: unknown }).name === 'string'
  );
}

export function buildDeskApi(): DeskApi {
  const calls = Object.fromEntries(
    channelNames.map((channel) => [channel, (input?: unknown) => ipcRenderer.invoke(channel, input)]),
  );
  const on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    if (!(eventNames as readonly string[]).includes(event)) {
      throw new TypeError(`There is no event called "${event}".`);
    }
    if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
    // The IPC event object (with its sender) stays here; the page receives only the payload.
    const handler = (_event: IpcRendererEvent, message: unknown) => {
      if (isEventMessage(message) && message.name === event) listener(message.payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  };
  // Built from the contract at run time, so the object's shape is DeskApi by construction.
  return { ...calls, on } as unknown as DeskApi;
}

contextBridge.exposeInMainWorld('desk', buildDeskApi());
