/// <reference lib="webworker" />
import {
  listSheets,
  readSpreadsheet,
  SpreadsheetReadError,
  streamInflater,
  type SheetJSRunner,
  type SheetRow,
  type SpreadsheetResult,
} from '../../../../../shared/spreadsheet';
import type { SheetJSBook, SheetJSRequest } from '../../../../../shared/spreadsheet/sheetjs/runner';
import {
  checkRow,
  makeRowChecker,
  type RowChecker,
  type WorkspaceMapping,
} from '../../../../../shared/workspace';
import { AcrossRowsState, type AcrossRowsReply, type AcrossRowsRequest } from '../model/acrossRowsState';
import { seedRows, seedTransferables, type RowSeed } from '../model/rowSeed';
import type { CheckableDonation, FileIssue } from '../../../../../shared/donation';
import { packRows } from '../../../../../shared/contract/packedRows';

/** Rows as they cross to the window: see PackedRows. Lengths and row numbers are transferred, not copied. */
export interface PackedTable {
  texts: string;
  lengths: Int32Array;
  /** 0 for none. */
  rowNumbers: Int32Array;
  width: number;
  /** `texts` in UTF-8, as main takes them (made here, off the window's thread). */
  textBytes: Uint8Array;
}

export type ImportRequest =
  | { type: 'read'; bytes: ArrayBuffer; fileName: string; sheet?: string; headerRow?: number }
  /** Check every row read with this mapping; the worker then keeps the across-rows warnings. */
  | { type: 'check'; id: number; mapping: WorkspaceMapping }
  | AcrossRowsRequest
  /** The window's answer to a 'sheetJS' reply: the book, SheetJS's message, or why it stopped. */
  | { type: 'sheetJSDone'; id: number; book?: SheetJSBook | { sheetJSError: string }; refusal?: string };

/** The result without its rows, which travel packed. */
export type ReadResult = Omit<SpreadsheetResult, 'rows'>;

export type ImportReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'sheets'; names: string[] }
  /** The sheet with its first rows (for the mapping step); every row follows in a 'rows' reply. */
  | { type: 'result'; result: ReadResult; head: SheetRow[]; rowCount: number }
  | { type: 'rows'; rows: PackedTable }
  /** `id` names the check that failed; without it, reading failed. */
  | { type: 'error'; message: string; id?: number }
  | { type: 'checked'; id: number; seed: RowSeed; fileIssues: FileIssue[] }
  | ({ type: 'across' } & AcrossRowsReply)
  /**
   * Asks the window to have the general reader (SheetJS) read these bytes in main's separate
   * process: a file that makes it fail fatally must not take the window's process down with this
   * worker (an out-of-memory in a worker ends the whole renderer).
   */
  | { type: 'sheetJS'; id: number; bytes: Uint8Array; request: SheetJSRequest };

/**
 * The workspace id is not known yet when the rows are checked here (main gives it). It only goes
 * into the reference pair's value, whose rules any id passes alike, and the across-rows checks
 * leave that pair out; the window checks rows again with the real id when it shows them.
 */
const PROVISIONAL_WORKSPACE_ID = '00000000-0000-0000-0000-000000000000';

/** How many rows come with the first reply: the mapping step's samples and header guess use 50. */
export const HEAD_ROWS = 50;

const post = (reply: ImportReply, transfer: Transferable[] = []) =>
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(reply, transfer);

let read: SpreadsheetResult | null = null;
let checker: RowChecker | null = null;
/** Rows known here by their digests have their donations worked out again when the checks need them. */
const across = new AcrossRowsState((key) => {
  const row = read?.rows[key];
  return row && checker ? (checkRow(checker, { key, ...row }).donation as CheckableDonation) : undefined;
});

let lastSheetJSCall = 0;
const sheetJSCalls = new Map<number, (done: Extract<ImportRequest, { type: 'sheetJSDone' }>) => void>();

/** SheetJS in main's separate process, through the window (a worker cannot call main itself). */
const sheetJSInMain: SheetJSRunner = (bytes, request) =>
  new Promise((resolve, reject) => {
    const id = ++lastSheetJSCall;
    sheetJSCalls.set(id, (done) => {
      sheetJSCalls.delete(id);
      if (done.book) resolve(done.book);
      else reject(new SpreadsheetReadError(done.refusal ?? 'The file could not be read.'));
    });
    post({ type: 'sheetJS', id, bytes, request });
  });

async function readFile(request: Extract<ImportRequest, { type: 'read' }>): Promise<void> {
  const { bytes, fileName, sheet, headerRow } = request;
  const data = new Uint8Array(bytes);
  post({ type: 'sheets', names: await listSheets(data, fileName, { sheetJS: sheetJSInMain }) });
  let last = 0;
  const result = await readSpreadsheet(data, fileName, {
    ...(sheet ? { sheet } : {}),
    ...(headerRow ? { headerRow } : {}),
    // The browser's own inflate is native code: several times faster here than pako.
    inflater: streamInflater,
    sheetJS: sheetJSInMain,
    onProgress(done, total) {
      const now = Date.now();
      if (now - last > 50 || done === total) {
        last = now;
        post({ type: 'progress', done, total });
      }
    },
  });
  read = result;
  const { rows, ...rest } = result;
  // The mapping step can show as soon as the window has the first rows; the rest are packed while
  // it does (the window's first check request is still on its way).
  post({ type: 'result', result: rest, head: rows.slice(0, HEAD_ROWS), rowCount: rows.length });
  const table = packRows(rows, result.headers.length);
  const packed: PackedTable = { ...table, textBytes: new TextEncoder().encode(table.texts) };
  post({ type: 'rows', rows: packed }, [
    packed.lengths.buffer,
    packed.rowNumbers.buffer,
    packed.textBytes.buffer as ArrayBuffer,
  ]);
}

/** Every row through the mapping and the rules, here rather than on the window's thread. */
function checkRows(request: Extract<ImportRequest, { type: 'check' }>): void {
  if (!read) throw new Error('There are no rows to check.');
  // Rows are keyed by position, as the new workspace's are.
  const rows = read.rows;
  checker = makeRowChecker(PROVISIONAL_WORKSPACE_ID, read.headers, request.mapping, rows);
  const { seed, digests } = seedRows(checker, rows);
  const keys = rows.map((_row, key) => key);
  const labels = rows.map((row) => String(row.rowNumber));
  across.resetFromDigests(keys, labels, digests, checker.referenceKey ? [checker.referenceKey] : []);
  post({ type: 'checked', id: request.id, seed, fileIssues: across.check() }, seedTransferables(seed));
}

// Reading and checking run here so the window never freezes; cancelling terminates this worker.
self.onmessage = async (event: MessageEvent<ImportRequest>) => {
  const request = event.data;
  if (request.type === 'sheetJSDone') {
    sheetJSCalls.get(request.id)?.(request);
    return;
  }
  try {
    if (request.type === 'read') await readFile(request);
    else if (request.type === 'check') checkRows(request);
    else post({ type: 'across', ...across.handle(request) });
  } catch (e) {
    post({
      type: 'error',
      message: e instanceof Error ? e.message : String(e),
      ...(request.type === 'check' ? { id: request.id } : {}),
    });
  }
};
