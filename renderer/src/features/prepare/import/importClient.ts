import type { SheetRow, SpreadsheetResult } from '../../../../../shared/spreadsheet';
import { littleEndianBytes, type PackedRowsInput } from '../../../../../shared/contract/packedRows';
import type { WorkspaceRow } from '../../../../../shared/contract';
import type { WorkspaceMapping } from '../../../../../shared/workspace';
import { canonicalJson, type FileIssue } from '../../../../../shared/donation';
import type { RowSeed } from '../model/rowSeed';
import type { ImportReply, ImportRequest, PackedTable, ReadResult } from './importWorker';
import { lazyRowsBuilder } from './lazyRows';
import { desk } from '../../../app/deskClient';

/**
 * A sheet read in the worker. The first rows come with it (enough for the mapping step); all the
 * rows follow packed, a moment later, and each is unpacked only when its cells are first read
 * (see lazyRows).
 */
export interface ImportedSheet extends SpreadsheetResult {
  rowCount: number;
  /** The first rows (up to HEAD_ROWS without waiting for the others). */
  head(count: number): SheetRow[];
  /** Resolves once every row is here; `rows`, `workspaceRows()` and `packed` need it. */
  whenRows(): Promise<void>;
  packed: PackedTable;
  /** The rows keyed 0, 1, 2… (the same objects as `rows`). */
  workspaceRows(): WorkspaceRow[];
  /** The rows as workspace.create and workspace.stageRows take them (UTF-8 made by the reader). */
  packedInput(): Promise<PackedRowsInput>;
  /**
   * Makes the grid's rows in small steps while the person looks at the mapping, so that confirming
   * it has little left to do (the bytes for main come ready from the reader: see packedInput).
   */
  prepare(): Promise<void>;
}

/** A moment for the window to do other things (a message, not a timer: timers are throttled). */
function pause(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

function importedSheet(
  result: ReadResult,
  first: SheetRow[],
  rowCount: number,
  packedRows: Promise<PackedTable>,
): ImportedSheet {
  let packed: PackedTable | undefined;
  const arrived = packedRows.then((table) => {
    packed = table;
  });
  const table = (): PackedTable => {
    if (!packed) throw new Error('The rows have not arrived from the reader yet.');
    return packed;
  };
  let builder: ReturnType<typeof lazyRowsBuilder> | undefined;
  const workspaceRows = (): WorkspaceRow[] => {
    builder ??= lazyRowsBuilder(table());
    while (!builder.next(Infinity));
    return builder.rows;
  };
  let input: Promise<PackedRowsInput> | undefined;
  const packedInput = () =>
    (input ??= arrived.then(() => {
      const { lengths, rowNumbers, width, textBytes } = table();
      return {
        texts: textBytes,
        lengths: littleEndianBytes(lengths),
        rowNumbers: littleEndianBytes(rowNumbers),
        width,
      };
    }));
  const sheet = {
    ...result,
    rowCount,
    head(count: number): SheetRow[] {
      // Rows read from a file always have a row number.
      if (count > first.length && packed) return workspaceRows().slice(0, count) as SheetRow[];
      return first.slice(0, count);
    },
    whenRows: () => arrived,
    workspaceRows,
    packedInput,
    async prepare(): Promise<void> {
      await arrived;
      builder ??= lazyRowsBuilder(table());
      while (!builder.next(5_000)) await pause();
    },
  };
  Object.defineProperty(sheet, 'packed', { get: table, enumerable: true });
  Object.defineProperty(sheet, 'rows', { get: workspaceRows, enumerable: true });
  return sheet as ImportedSheet;
}

/** Every row checked in the import worker, which then keeps the across-rows warnings up to date. */
export interface PreparedChecks {
  mapping: WorkspaceMapping;
  seed: RowSeed;
  fileIssues: FileIssue[];
  /** The worker, now answering across-rows requests; whoever takes it terminates it. */
  worker: Worker;
}

export interface ImportJob {
  result: Promise<ImportedSheet>;
  cancel(): void;
}

/** A file read in a worker that stays alive with the rows, ready to check them all. */
export interface ImportSession extends ImportJob {
  /**
   * Starts checking every row with a mapping the person is likely to confirm (the one the mapping
   * step opens with), so the work is done, or under way, by the time they do.
   */
  prepare(mapping: WorkspaceMapping): void;
  /**
   * Every row checked with the mapping in the worker (reusing a prepared check of the same
   * mapping), and the worker handed over. Resolves to null when the worker cannot do it (the
   * window then checks the rows itself).
   */
  check(mapping: WorkspaceMapping): Promise<PreparedChecks | null>;
  /** Ends the worker unless a check has taken it. */
  dispose(): void;
}

export class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled.');
  }
}

let spare: Worker | null = null;
const newWorker = () => new Worker(new URL('./importWorker.ts', import.meta.url), { type: 'module' });

/**
 * Starts a worker ahead of need, so its code is loaded and compiled before a file is chosen. The
 * next import takes it.
 */
export function warmUpImportWorker(): void {
  spare ??= newWorker();
}

function takeWorker(): Worker {
  const worker = spare ?? newWorker();
  spare = null;
  return worker;
}

type Checked = Extract<ImportReply, { type: 'checked' }>;

/** Has main read the bytes with the general reader, in its separate process, and tells the worker. */
async function readWithSheetJSInMain(
  worker: Worker,
  { id, bytes, request }: Extract<ImportReply, { type: 'sheetJS' }>,
): Promise<void> {
  let done: ImportRequest;
  try {
    const result = await desk['spreadsheet.readWithSheetJS']({ bytes, ...request });
    done = result.ok
      ? { type: 'sheetJSDone', id, book: result.value }
      : { type: 'sheetJSDone', id, refusal: result.error.message };
  } catch {
    done = { type: 'sheetJSDone', id, refusal: READER_GONE };
  }
  worker.postMessage(done);
}

/** When the reader's answer never comes (its process or the worker ended without one). */
const READER_GONE =
  'The file could not be read: the spreadsheet reader stopped part-way. Open it in Excel, save it again as .xlsx, and import the new copy.';

/** Reads a spreadsheet in a Web Worker; progress is reported as a fraction from 0 to 1. */
export function startImport(
  request: { bytes: Uint8Array; fileName: string; sheet?: string; headerRow?: number },
  onProgress: (fraction: number) => void,
  onSheets?: (names: string[]) => void,
): ImportSession {
  const worker = takeWorker();
  let finished = false;
  let handedOver = false;
  /** Once the final check is asked for, the worker is that check's to end or hand over. */
  let claimed = false;
  let rejectJob: (e: Error) => void = () => undefined;
  /** Checks asked of the worker, by request id, and the latest one per mapping. */
  const waiting = new Map<number, (reply: Checked | null) => void>();
  const byMapping = new Map<string, { id: number; reply: Promise<Checked | null> }>();
  let lastId = 0;
  let readDone = false;
  let rowsArrived: (table: PackedTable) => void = () => undefined;
  let rowsLost: (error: Error) => void = () => undefined;
  const packedRows = new Promise<PackedTable>((resolve, reject) => {
    rowsArrived = resolve;
    rowsLost = reject;
  });
  // Nobody may be waiting for the rows (a cancelled import): that is no unhandled failure.
  packedRows.catch(() => undefined);
  const stop = () => {
    finished = true;
    if (!handedOver) worker.terminate();
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
    rowsLost(new ImportCancelled());
  };
  const result = new Promise<ImportedSheet>((resolve, reject) => {
    rejectJob = reject;
    worker.onmessage = (event: MessageEvent<ImportReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') onProgress(reply.total > 0 ? reply.done / reply.total : 0);
      else if (reply.type === 'sheets') onSheets?.(reply.names);
      else if (reply.type === 'result') {
        readDone = true;
        resolve(importedSheet(reply.result, reply.head, reply.rowCount, packedRows));
      } else if (reply.type === 'rows') {
        rowsArrived(reply.rows);
      } else if (reply.type === 'sheetJS') {
        void readWithSheetJSInMain(worker, reply);
      } else if (reply.type === 'checked') {
        waiting.get(reply.id)?.(reply);
        waiting.delete(reply.id);
      } else if (reply.type === 'error') {
        if (reply.id !== undefined) {
          waiting.get(reply.id)?.(null);
          waiting.delete(reply.id);
        } else {
          stop();
          reject(new Error(reply.message));
        }
      }
    };
    worker.onerror = () => {
      stop();
      reject(new Error(READER_GONE));
    };
  });
  // The user's bytes are copied into the worker, never changed.
  const copy = request.bytes.slice().buffer;
  worker.postMessage({ type: 'read', ...request, bytes: copy } satisfies ImportRequest, [copy]);

  /** The check of this mapping: the one asked for last, or a new one. */
  const checkOf = (mapping: WorkspaceMapping) => {
    const key = canonicalJson(mapping);
    const known = byMapping.get(key);
    // Only the last check asked for leaves the worker's across-rows state as it should be.
    if (known && known.id === lastId) return known;
    const id = ++lastId;
    const reply = new Promise<Checked | null>((resolve) => waiting.set(id, resolve));
    const entry = { id, reply };
    byMapping.set(key, entry);
    worker.postMessage({ type: 'check', id, mapping } satisfies ImportRequest);
    return entry;
  };

  return {
    result,
    cancel() {
      stop();
      rejectJob(new ImportCancelled());
    },
    prepare(mapping) {
      if (!finished && !claimed && readDone) checkOf(mapping);
    },
    async check(mapping) {
      if (finished || claimed || !readDone) return null;
      claimed = true;
      const reply = await checkOf(mapping).reply;
      if (!reply || finished) {
        stop();
        return null;
      }
      handedOver = true;
      finished = true;
      return { mapping, seed: reply.seed, fileIssues: reply.fileIssues, worker };
    },
    dispose() {
      if (!claimed) stop();
    },
  };
}
