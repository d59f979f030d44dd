import { utilityProcess } from 'electron';
import { join } from 'node:path';
import { endOnce, type ApartProgram, type LaunchApartProcess } from '../services/core/apartProcess';
import { SHEETJS_READER_FILE } from '../services/spreadsheet/sheetJSReaderSource';

/** Where each apart program is once installed: plain files in resources, beside app.asar. */
const INSTALLED: Record<ApartProgram, string> = {
  sheetJSReader: SHEETJS_READER_FILE,
  offlineSandbox: 'offlineSandbox.cjs',
};

/**
 * The file each apart program runs from: in the installed app, in resources beside app.asar (files
 * a utility process can start whatever its archive support); in development, what the build wrote
 * beside main's bundle and the emulator's own bundle.
 */
export function apartFilesFor(
  isPackaged: boolean,
  resourcesPath: string,
  mainDir: string,
): Record<ApartProgram, string> {
  if (isPackaged) {
    return {
      sheetJSReader: join(resourcesPath, INSTALLED.sheetJSReader),
      offlineSandbox: join(resourcesPath, INSTALLED.offlineSandbox),
    };
  }
  return {
    sheetJSReader: join(mainDir, SHEETJS_READER_FILE),
    offlineSandbox: join(mainDir, '..', 'emulator', 'index.cjs'),
  };
}

const SERVICE_NAMES: Record<ApartProgram, string> = {
  sheetJSReader: 'Donation Desk spreadsheet reader',
  offlineSandbox: 'Donation Desk Offline sandbox',
};

/**
 * The desktop app's apart programs run as Electron utility processes. The app's fuses turn
 * ELECTRON_RUN_AS_NODE off, so the app's own binary cannot be started as Node the way the CLI does
 * it; a utility process is Electron's own way to run a Node program apart, with its own heap limit.
 */
export function utilityApartProcess(files: Record<ApartProgram, string>): LaunchApartProcess {
  return ({ program, maxHeapMb, env }) => {
    const child = utilityProcess.fork(files[program], [], {
      execArgv: maxHeapMb ? [`--max-old-space-size=${maxHeapMb}`] : [],
      env: { ...definedOnly(process.env), ...env },
      stdio: 'ignore',
      serviceName: SERVICE_NAMES[program],
    });
    const gone = endOnce();
    child.once('exit', () => gone.end());
    child.once('error', () => gone.end());
    return {
      send: (message) => {
        if (!gone.ended) child.postMessage(message);
      },
      onMessage: (listener) => child.on('message', listener),
      onEnd: (listener) => gone.onEnd(listener),
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
