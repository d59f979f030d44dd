/**
 * A separate process that reads one file and answers once (the spreadsheet reader for .xls and
 * .ods). The host decides how it is started: a Node child process in the CLI and the local bridge,
 * an Electron utility process in the desktop app (see electron/main/readerProcess.ts).
 */
export interface ReaderProcess {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone however it went: exit, crash, or failure to start. */
  onEnd(listener: () => void): void;
  kill(): void;
}

export interface ReaderProcessOptions {
  /** V8 heap of the reading process, in megabytes. */
  maxHeapMb: number;
  /** Added to the process's environment. */
  env: Record<string, string>;
}

export type LaunchReaderProcess = (options: ReaderProcessOptions) => ReaderProcess;
