import type { RunningEmulator } from '../../../emulator/server';
import {
  SANDBOX_APART_FLAG,
  type FromSandbox,
  type SandboxReady,
  type ToSandbox,
} from '../../../emulator/apart';
import { DeskFailure } from '../../../shared/result';
import type { LaunchApartProcess } from '../core/apartProcess';
import type { StartOfflineService } from './environments';

export interface OfflineSandboxOptions {
  dataDir: string;
  timeScale: number;
  recipientCheck: 'processing' | 'validation';
  /** How long a close waits for the sandbox to save before it is stopped (ms). */
  closeWaitMs?: number;
}

const unreachable = (why: string): DeskFailure =>
  new DeskFailure(
    'NETWORK',
    `The Offline sandbox ${why}. Try again; if it happens again, restart Donation Desk.`,
  );

/**
 * The Offline sandbox in a process of its own (emulator/apart.ts): started the first time it is
 * needed, spoken to over the process's message channel, and forgotten when that process ends, so
 * that the next use starts it again on the state it saved. Its clock is read here from where it
 * last said it was: the emulator's clock runs at a steady rate from that moment.
 */
export function offlineSandboxApart(
  launch: LaunchApartProcess,
  options: OfflineSandboxOptions,
): StartOfflineService {
  return (whenGone) =>
    new Promise<RunningEmulator>((resolve, reject) => {
      let child;
      try {
        child = launch({ program: 'offlineSandbox', env: { [SANDBOX_APART_FLAG]: '1' } });
      } catch (error) {
        reject(unreachable(`could not start (${error instanceof Error ? error.message : String(error)})`));
        return;
      }
      const sandbox = child;
      let anchor = { virtualMs: 0, realMs: 0 };
      const setClock = (iso: string): void => {
        anchor = { virtualMs: Date.parse(iso), realMs: Date.now() };
      };
      let ready: SandboxReady | null = null;
      let gone = false;
      let nextId = 1;
      const asked = new Map<number, { resolve: () => void; reject: (e: unknown) => void }>();
      const closing: (() => void)[] = [];
      const send = (message: ToSandbox): void => sandbox.send(message);

      sandbox.onMessage((raw) => {
        const message = raw as FromSandbox;
        if ('ready' in message) {
          ready = message.ready;
          setClock(ready.now);
          resolve(running(ready));
        } else if ('failed' in message) {
          reject(unreachable(`could not start: ${message.failed}`));
        } else if ('clock' in message) {
          setClock(message.clock.now);
          asked.get(message.clock.id)?.resolve();
          asked.delete(message.clock.id);
        } else if ('closed' in message) {
          for (const done of closing.splice(0)) done();
        }
      });
      sandbox.onEnd(() => {
        gone = true;
        if (!ready) reject(unreachable('stopped while starting'));
        for (const { reject: fail } of asked.values()) fail(unreachable('stopped'));
        asked.clear();
        for (const done of closing.splice(0)) done();
        whenGone?.();
      });
      send({
        start: {
          dataDir: options.dataDir,
          timeScale: options.timeScale,
          recipientCheck: options.recipientCheck,
        },
      });

      function running(at: SandboxReady): RunningEmulator {
        return {
          apiBaseUrl: at.apiBaseUrl,
          tokenUrl: at.tokenUrl,
          uploadBaseUrl: at.uploadBaseUrl,
          programUrl: at.programUrl,
          timeScale: at.timeScale,
          clientId: at.clientId,
          clientSecret: at.clientSecret,
          now: () => new Date(Math.floor(anchor.virtualMs + (Date.now() - anchor.realMs) * at.timeScale)),
          advance: (seconds) =>
            new Promise<void>((done, fail) => {
              if (gone) return fail(unreachable('has stopped'));
              const id = nextId++;
              asked.set(id, { resolve: done, reject: fail });
              send({ clock: { id, advanceSeconds: seconds } });
            }),
          close: () =>
            new Promise<void>((done) => {
              if (gone) return done();
              const timer = setTimeout(() => sandbox.kill(), options.closeWaitMs ?? 60_000);
              closing.push(() => {
                clearTimeout(timer);
                done();
              });
              send({ close: true });
            }),
        };
      }
    });
}
