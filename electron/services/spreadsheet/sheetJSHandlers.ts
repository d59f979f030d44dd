import type { Services } from '../../../shared/contract';
import type { SheetJSRunner } from '../../../shared/spreadsheet';
import type { LaunchApartProcess } from '../core/apartProcess';
import { sheetJSInChildProcess } from './sheetJSProcess';

type SheetJSHandlers = Pick<Services, 'spreadsheet.readWithSheetJS'>;

/**
 * The general reader for the app's import worker, in a process of its own (see
 * sheetJSInChildProcess): when that process dies or runs out of time, the call fails with
 * SPREADSHEET_UNREADABLE and says what to do. DONATION_DESK_SHEETJS_HEAP_MB lowers its memory limit
 * (tests use it to reach the limit in seconds). The host says how that process is started (the
 * desktop app: an Electron utility process); a Node child process otherwise.
 */
export function sheetJSHandlers(
  env: NodeJS.ProcessEnv = process.env,
  launch?: LaunchApartProcess,
  runner: SheetJSRunner = sheetJSInChildProcess({ ...heapOf(env), ...(launch ? { launch } : {}) }),
): SheetJSHandlers {
  return {
    'spreadsheet.readWithSheetJS': ({ bytes, sheet, namesOnly }) =>
      runner(bytes, { ...(sheet !== undefined ? { sheet } : {}), ...(namesOnly ? { namesOnly } : {}) }),
  };
}

function heapOf(env: NodeJS.ProcessEnv): { maxHeapMb?: number } {
  const heap = Number(env.DONATION_DESK_SHEETJS_HEAP_MB);
  return Number.isInteger(heap) && heap >= 32 ? { maxHeapMb: heap } : {};
}
