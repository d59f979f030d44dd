import { utilityProcess } from 'electron';
import { join } from 'node:path';
import type { LaunchReaderProcess } from '../services/core/readerProcess';
import { SHEETJS_READER_FILE } from '../services/spreadsheet/sheetJSReaderSource';

/**
 * Where the reading program is: in the installed app, in resources beside app.asar (a file a
 * utility process can start whatever the archive support); in development, beside main's bundle.
 */
export function readerFileFor(isPackaged: boolean, resourcesPath: string, mainDir: string): string {
  return isPackaged ? join(resourcesPath, SHEETJS_READER_FILE) : join(mainDir, SHEETJS_READER_FILE);
}

/**
 * The desktop app's reading process: an Electron utility process. The app's fuses turn
 * ELECTRON_RUN_AS_NODE off, so the app's own binary cannot be started as Node the way the CLI does
 * it; a utility process is Electron's own way to run a Node program apart, with its own heap limit.
 */
export function utilityReaderProcess(file: string): LaunchReaderProcess {
  return ({ maxHeapMb, env }) => {
    const child = utilityProcess.fork(file, [], {
      execArgv: [`--max-old-space-size=${maxHeapMb}`],
      env: { ...definedOnly(process.env), ...env },
      stdio: 'ignore',
      serviceName: 'Donation Desk spreadsheet reader',
    });
    let ended = false;
    const ends: (() => void)[] = [];
    const end = (): void => {
      if (ended) return;
      ended = true;
      for (const listener of ends) listener();
    };
    child.once('exit', end);
    child.once('error', end);
    return {
      send: (message) => child.postMessage(message),
      onMessage: (listener) => child.once('message', listener),
      onEnd: (listener) => ends.push(listener),
      kill: () => {
        child.kill();
      },
    };
  };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
