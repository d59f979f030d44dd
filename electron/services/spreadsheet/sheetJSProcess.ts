import { createRequire } from 'node:module';
import type { ApartProcess, LaunchApartProcess } from '../core/apartProcess';
import { nodeApartProcess } from '../core/nodeApartProcess';
import {
  SHEETJS_PROCESS_LIMITS,
  SpreadsheetReadError,
  type SheetJSRunner,
} from '../../../shared/spreadsheet';
import { sheetJSOptions } from '../../../shared/spreadsheet/sheetjs/readWithSheetJS';
import { SHEETJS_READER_SOURCE } from './sheetJSReaderSource';

const stopped = (why: string): SpreadsheetReadError =>
  new SpreadsheetReadError(
    `The file could not be read: the spreadsheet reader stopped ${why} (the file may be damaged or built to harm). Open it in Excel, save it again as .xlsx, and import the new copy.`,
  );

export interface SheetJSProcessOptions {
  /** V8 heap of the reading process, in megabytes. */
  maxHeapMb?: number;
  timeoutMs?: number;
  /** How the host starts the process (the desktop app: a utility process); a Node child by default. */
  launch?: LaunchApartProcess;
}

/**
 * Runs SheetJS in a separate process with a heap limit and a time limit. A file that makes SheetJS
 * fail fatally (V8's "invalid size" or out-of-memory aborts end the whole process, even in a worker
 * thread with resourceLimits, as measured on Node 20) then ends in a refusal the caller can show,
 * and the app or the CLI carries on.
 */
export function sheetJSInChildProcess(options: SheetJSProcessOptions = {}): SheetJSRunner {
  const maxHeapMb = options.maxHeapMb ?? SHEETJS_PROCESS_LIMITS.maxHeapMb;
  const timeoutMs = options.timeoutMs ?? SHEETJS_PROCESS_LIMITS.timeoutMs;
  const launch = options.launch ?? nodeApartProcess({ sheetJSReader: { source: SHEETJS_READER_SOURCE } });
  let sheetJSModule: string | undefined;
  return (bytes, request) =>
    new Promise((resolve, reject) => {
      // Found at the first read, so that an app missing it still starts (and refuses the file).
      let reader: ApartProcess;
      try {
        sheetJSModule ??= createRequire(import.meta.url).resolve('xlsx');
        reader = launch({ program: 'sheetJSReader', maxHeapMb, env: { DESK_SHEETJS_MODULE: sheetJSModule } });
      } catch {
        reject(stopped('before it could start'));
        return;
      }
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        finish();
      };
      const timer = setTimeout(() => {
        reader.kill();
        settle(() => reject(stopped(`after ${timeoutMs / 1000} seconds`)));
      }, timeoutMs);
      reader.onMessage((reply) => {
        settle(() => resolve(reply as Awaited<ReturnType<SheetJSRunner>>));
        // One answer is all it gives: a utility process is ended here, a child ends by itself.
        reader.kill();
      });
      reader.onEnd(() => settle(() => reject(stopped('part-way, out of memory or failing'))));
      reader.send({ bytes, options: sheetJSOptions(request), sheet: request.sheet });
    });
}
