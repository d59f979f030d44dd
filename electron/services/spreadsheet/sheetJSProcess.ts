import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  SHEETJS_PROCESS_LIMITS,
  SpreadsheetReadError,
  type SheetJSRunner,
} from '../../../shared/spreadsheet';
import { sheetJSOptions } from '../../../shared/spreadsheet/sheetjs/readWithSheetJS';

/**
 * The reading process: SheetJS parses the bytes with the options it is sent and sends back the plain
 * data the reader needs (the sheet names, the date system, the asked sheet's dense cells and merged
 * ranges), or SheetJS's error message. It is a source string so that the CLI bundle needs no second
 * file beside it.
 */
const CHILD_SOURCE = `
const XLSX = require(process.env.DESK_SHEETJS_MODULE);
process.once('message', ({ bytes, options, sheet }) => {
  let reply;
  try {
    const workbook = XLSX.read(bytes, options);
    const names = workbook.SheetNames;
    const found = workbook.Sheets ? workbook.Sheets[sheet === undefined ? names[0] : sheet] : undefined;
    const props = workbook.Workbook && workbook.Workbook.WBProps;
    reply = {
      sheetNames: names,
      date1904: Boolean(props && props.date1904),
      cells: (found && found['!data']) || [],
      merges: (found && found['!merges']) || [],
    };
  } catch (error) {
    reply = { sheetJSError: error instanceof Error ? error.message : String(error) };
  }
  process.send(reply, () => process.disconnect());
});
`;

const stopped = (why: string): SpreadsheetReadError =>
  new SpreadsheetReadError(
    `The file could not be read: the spreadsheet reader stopped ${why} (the file may be damaged or built to harm). Open it in Excel, save it again as .xlsx, and import the new copy.`,
  );

export interface SheetJSProcessOptions {
  /** V8 heap of the reading process, in megabytes. */
  maxHeapMb?: number;
  timeoutMs?: number;
  /** Test-only: the program the process runs instead of the reading one. */
  childSource?: string;
}

/**
 * Runs SheetJS in a separate Node process with a heap limit and a time limit. A file that makes
 * SheetJS fail fatally (V8's "invalid size" or out-of-memory aborts end the whole process, even in
 * a worker thread with resourceLimits, as measured on Node 20) then ends in a refusal the caller can
 * show, and the CLI carries on.
 */
export function sheetJSInChildProcess(options: SheetJSProcessOptions = {}): SheetJSRunner {
  const maxHeapMb = options.maxHeapMb ?? SHEETJS_PROCESS_LIMITS.maxHeapMb;
  const timeoutMs = options.timeoutMs ?? SHEETJS_PROCESS_LIMITS.timeoutMs;
  let sheetJSModule: string | undefined;
  return (bytes, request) =>
    new Promise((resolve, reject) => {
      // Found at the first read, so that an app missing it still starts (and refuses the file).
      try {
        sheetJSModule ??= createRequire(import.meta.url).resolve('xlsx');
      } catch {
        reject(stopped('before it could start'));
        return;
      }
      const child = spawn(
        process.execPath,
        [`--max-old-space-size=${maxHeapMb}`, '-e', options.childSource ?? CHILD_SOURCE],
        {
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
          serialization: 'advanced',
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', DESK_SHEETJS_MODULE: sheetJSModule },
        },
      );
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        finish();
      };
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        settle(() => reject(stopped(`after ${timeoutMs / 1000} seconds`)));
      }, timeoutMs);
      child.once('message', (reply) => settle(() => resolve(reply as Awaited<ReturnType<SheetJSRunner>>)));
      child.once('error', () => settle(() => reject(stopped('before it could start'))));
      child.once('close', () => settle(() => reject(stopped('part-way, out of memory or failing'))));
      child.send({ bytes, options: sheetJSOptions(request), sheet: request.sheet }, (error) => {
        if (error) settle(() => reject(stopped('before it could start')));
      });
    });
}
