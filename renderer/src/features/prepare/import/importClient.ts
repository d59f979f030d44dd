import type { SheetRow, SpreadsheetResult } from '../../../../../shared/spreadsheet';
import { unpackRows } from '../../../../../shared/contract/packedRows';
import type { WorkspaceRow } from '../../../../../shared/contract';
import type { WorkspaceMapping } from '../../../../../shared/workspace';
import { canonicalJson, type FileIssue } from '../../../../../shared/donation';
import type { RowSeed } from '../model/rowSeed';
import type { ImportReply, ImportRequest, PackedTable, ReadResult } from './importWorker';
import { lazyRows } from './lazyRows';

/**
 * A sheet read in the worker. Its rows arrive packed and each is unpacked the first time its cells
 * are read (`rows` or `workspaceRows()`, see lazyRows): the mapping step needs only the first few.
 */
export interface ImportedSheet extends SpreadsheetResult {
  packed: PackedTable;
  rowCount: number;
  /** The rows keyed 0, 1, 2… (the same objects as `rows`). */
  workspaceRows(): WorkspaceRow[];
  /** The first rows, without unpacking the others. */
  head(count: number): SheetRow[];
}

function importedSheet(result: ReadResult, packed: PackedTable): ImportedSheet {
  let rows: WorkspaceRow[] | undefined;
  const workspaceRows = () => (rows ??= lazyRows(packed));
  const sheet = {
    ...result,
    packed,
    rowCount: packed.rowNumbers.length,
    workspaceRows,
    head(count: number): SheetRow[] {
      // Rows read from a file always have a row number.
      if (rows) return rows.slice(0, count) as SheetRow[];
      const first = Math.min(count, packed.rowNumbers.length);
      let cells = 0;
      for (let i = 0; i < first * packed.width; i++) cells += packed.lengths[i] as number;
      return unpackRows({
        texts: packed.texts.slice(0, cells),
        lengths: packed.lengths.subarray(0, first * packed.width),
        rowNumbers: packed.rowNumbers.subarray(0, first),
        width: packed.width,
      }) as SheetRow[];
    },
  };
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
  const stop = () => {
    finished = true;
    if (!handedOver) worker.terminate();
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  const result = new Promise<ImportedSheet>((resolve, reject) => {
    rejectJob = reject;
    worker.onmessage = (event: MessageEvent<ImportReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') onProgress(reply.total > 0 ? reply.done / reply.total : 0);
      else if (reply.type === 'sheets') onSheets?.(reply.names);
      else if (reply.type === 'result') {
        readDone = true;
        resolve(importedSheet(reply.result, reply.rows));
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
    worker.onerror = (event) => {
      stop();
      reject(new Error(event.message || 'The spreadsheet reader stopped unexpectedly.'));
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
