import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { channelNames, dispatch, EVENT_CHANNEL, type Services } from '../../shared/contract';
import { err } from '../../shared/result';
import type { EventBus } from '../services/core/eventBus';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/**
 * A call is ours only when it comes from the top frame of our own window showing our own renderer
 * page. Anything else (an iframe, a page the window was somehow navigated to, another webContents)
 * is refused before the input is even parsed.
 */
export function createSenderCheck(
  ownContents: () => WebContents | null,
  isOwnRendererUrl: (url: string) => boolean,
): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    const contents = ownContents();
    if (!frame || !contents || contents.isDestroyed()) return false;
    if (event.sender !== contents) return false;
    if (frame.parent !== null) return false;
    return isOwnRendererUrl(frame.url);
  };
}

export const forbiddenSender = () =>
  err('FORBIDDEN_SENDER', 'This request did not come from the Donation Desk window, so it was refused.');

/** One `ipcMain.handle` per contract channel; returns a function that removes them all. */
export function registerIpcHandlers(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  services: Services,
  isTrustedSender: SenderCheck,
  onUnexpected: (channel: string, error: unknown) => void,
): () => void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, async (event, rawInput: unknown) => {
      if (!isTrustedSender(event)) return forbiddenSender();
      return dispatch(services, channel, rawInput, { transport: 'ipc' }, onUnexpected);
    });
  }
  return () => {
    for (const channel of channelNames) ipcMain.removeHandler(channel);
  };
}

/** Pushes every service event to the window, as `{ name, payload }` on the one event channel. */
export function forwardEvents(
  events: Pick<EventBus, 'subscribe'>,
  target: () => WebContents | null,
): () => void {
  return events.subscribe((name, payload) => {
    const contents = target();
    if (!contents || contents.isDestroyed()) return;
    contents.send(EVENT_CHANNEL, { name, payload });
  });
}
