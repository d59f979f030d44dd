import {
  channelNames,
  type ChannelName,
  type DeskApi,
  type EventName,
  type EventPayload,
} from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import { CALL_WITH_BYTES_TYPE, encodeCallWithBytes } from '../../../shared/contract/callBody';

declare global {
  interface Window {
    /** Present in the Electron app: built by the preload from the contract. */
    desk?: DeskApi;
  }
}

const SECRET_KEY = 'donation-desk.bridge-secret';
const SECRET_HEADER = 'x-desk-secret';

/** The bridge secret arrives in the address's fragment once; it is kept for this tab only. */
function takeBridgeSecret(): string | null {
  const match = /(?:^#|&)secret=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(SECRET_KEY, match[1]);
    history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/`);
    return match[1];
  }
  return sessionStorage.getItem(SECRET_KEY);
}

type Listener = (name: EventName, payload: unknown) => void;

function bridgeClient(secret: string | null): DeskApi {
  const listeners = new Set<Listener>();
  let streaming = false;

  async function call(channel: ChannelName, input: unknown): Promise<Result<unknown>> {
    if (!secret) {
      return {
        ok: false,
        error: {
          code: 'NO_SECRET',
          message:
            'This page was opened without the secret of this launch. Open the address that `npm start` or `npm run web` printed in its terminal (it starts with http://127.0.0.1: and ends with #secret=…): it carries the secret.',
        },
      };
    }
    try {
      // Inputs that hold bytes (a new workspace's rows) go as JSON with attachments, the bytes as
      // they are; others as JSON. Either way in a Blob: a string body is converted again inside
      // fetch on this thread, which measured slower than encoding it here.
      const withBytes = encodeCallWithBytes(input);
      const type = withBytes ? CALL_WITH_BYTES_TYPE : 'application/json';
      const parts = withBytes ?? [new TextEncoder().encode(JSON.stringify(input ?? {}))];
      const response = await fetch(`/api/call/${channel}`, {
        method: 'POST',
        headers: { 'content-type': type, [SECRET_HEADER]: secret },
        body: new Blob(parts as BlobPart[], { type }),
      });
      return (await response.json()) as Result<unknown>;
    } catch {
      return {
        ok: false,
        error: {
          code: 'BRIDGE_DOWN',
          message:
            'Lost contact with Donation Desk. Is `npm start` or `npm run web` still running in its terminal? Start it again and open the address it prints.',
        },
      };
    }
  }

  async function stream(): Promise<void> {
    if (!secret) return;
    for (;;) {
      try {
        const response = await fetch('/api/events', { headers: { [SECRET_HEADER]: secret } });
        const reader = response.body?.getReader();
        if (!reader) return;
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (!data) continue;
            const { name, payload } = JSON.parse(data) as { name: EventName; payload: unknown };
            for (const l of listeners) l(name, payload);
          }
        }
      } catch {
        // The bridge restarted or the network blinked: reconnect below.
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  }

  const api = Object.fromEntries(channelNames.map((c) => [c, (input?: unknown) => call(c, input)])) as Record<
    string,
    unknown
  >;
  api.on = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => {
    if (!streaming) {
      streaming = true;
      void stream();
    }
    const wrapped: Listener = (name, payload) => {
      if (name === event) listener(payload as EventPayload<E>);
    };
    listeners.add(wrapped);
    return () => listeners.delete(wrapped);
  };
  return api as unknown as DeskApi;
}

/** `window.desk` inside Electron; the local bridge in a browser. */
export const desk: DeskApi = window.desk ?? bridgeClient(takeBridgeSecret());

/** Unwraps a result for code that shows errors through the nearest error boundary or snackbar. */
export async function unwrap<T>(promise: Promise<Result<T>>): Promise<T> {
  const result = await promise;
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value;
}
