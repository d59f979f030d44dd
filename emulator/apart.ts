import { startEmulator, type EmulatorOptions, type RunningEmulator } from './server';

/*
 * The Offline sandbox in a process of its own: the emulator, started by the app or the CLI and
 * spoken to over the process's message channel (an IPC channel in a Node child process,
 * `process.parentPort` in an Electron utility process). The sandbox stands for a service elsewhere:
 * what it holds and what it does with a big upload stay out of the app's memory, and a failure of
 * its own cannot take the app down.
 *
 * Messages to it: { start: EmulatorOptions }, { clock: { id, advanceSeconds? } }, { close: true }.
 * Messages from it: { ready: SandboxAddresses & { now, timeScale } } or { failed: message },
 * { clock: { id, now } }, { closed: true }.
 */

/** What the sandbox tells its parent once it listens. */
export interface SandboxReady {
  apiBaseUrl: string;
  tokenUrl: string;
  uploadBaseUrl: string;
  programUrl: string;
  timeScale: number;
  clientId: string;
  clientSecret: string;
  /** Its clock when it said so (ISO). */
  now: string;
}

export type ToSandbox =
  { start: EmulatorOptions } | { clock: { id: number; advanceSeconds?: number } } | { close: true };
export type FromSandbox =
  { ready: SandboxReady } | { failed: string } | { clock: { id: number; now: string } } | { closed: true };

/** The environment variable that makes the emulator's program serve its parent instead of a person. */
export const SANDBOX_APART_FLAG = 'DESK_OFFLINE_SANDBOX_APART';

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

/** Serves the parent until it says close, or goes away (the sandbox then saves and ends too). */
export function serveParent(): void {
  const port = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  const send = (message: FromSandbox): void => {
    if (port) port.postMessage(message);
    else process.send?.(message);
  };
  let emulator: RunningEmulator | null = null;
  let ending = false;
  const end = async (): Promise<void> => {
    if (ending) return;
    ending = true;
    await emulator?.close().catch(() => undefined);
    send({ closed: true });
    // Let the last message leave before the process ends.
    setTimeout(() => process.exit(0), 50);
  };
  const receive = (message: ToSandbox): void => {
    if ('start' in message) {
      startEmulator({ ...message.start, quiet: true }).then(
        (started) => {
          emulator = started;
          send({
            ready: {
              apiBaseUrl: started.apiBaseUrl,
              tokenUrl: started.tokenUrl,
              uploadBaseUrl: started.uploadBaseUrl,
              programUrl: started.programUrl,
              timeScale: started.timeScale,
              clientId: started.clientId,
              clientSecret: started.clientSecret,
              now: started.now().toISOString(),
            },
          });
        },
        (error: unknown) => {
          send({ failed: error instanceof Error ? error.message : String(error) });
          setTimeout(() => process.exit(1), 50);
        },
      );
    } else if ('clock' in message) {
      if (!emulator) return;
      const { id, advanceSeconds } = message.clock;
      void (async () => {
        if (advanceSeconds) await emulator.advance(advanceSeconds);
        send({ clock: { id, now: emulator.now().toISOString() } });
      })();
    } else if ('close' in message) {
      void end();
    }
  };
  if (port) port.on('message', (event) => receive(event.data as ToSandbox));
  else {
    process.on('message', (message) => receive(message as ToSandbox));
    // The app or the CLI went away without a word (killed): save and end rather than live on.
    process.on('disconnect', () => void end());
  }
}
