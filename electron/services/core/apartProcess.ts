/**
 * A program the app runs in a process of its own, so that what it does with a file or a big upload
 * cannot exhaust or end the app: the spreadsheet reader for .xls and .ods (one request, one answer)
 * and the Offline sandbox (the service emulator, for as long as it is used). The host decides how
 * it is started: a Node child process in the CLI and the local bridge, an Electron utility process
 * in the desktop app (see electron/main/apartProcess.ts), whose fuses forbid running its own binary
 * as Node.
 */
export type ApartProgram = 'sheetJSReader' | 'offlineSandbox';

export interface ApartProcess {
  send(message: unknown): void;
  /** Every message the process sends. */
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone however it went: exit, crash, or failure to start. */
  onEnd(listener: () => void): void;
  kill(): void;
}

export interface ApartProcessOptions {
  program: ApartProgram;
  /** V8 heap of the process, in megabytes (Node's default when absent). */
  maxHeapMb?: number;
  /** Added to the process's environment. */
  env: Record<string, string>;
}

export type LaunchApartProcess = (options: ApartProcessOptions) => ApartProcess;

/** An apart process's end, told once to each listener however many signs of it come. */
export interface EndOnce {
  /** Marks the process gone (the first call tells every listener; later calls do nothing). */
  end(): void;
  /** True once the process is gone. */
  readonly ended: boolean;
  /** Called once when the process is gone: at once if it already is. */
  onEnd(listener: () => void): void;
}

export function endOnce(): EndOnce {
  let ended = false;
  const listeners: (() => void)[] = [];
  return {
    end() {
      if (ended) return;
      ended = true;
      for (const listener of listeners.splice(0)) listener();
    },
    get ended() {
      return ended;
    },
    onEnd(listener) {
      if (ended) listener();
      else listeners.push(listener);
    },
  };
}
