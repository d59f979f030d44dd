import { unpackRows, type PackedRows, type WorkspaceEdit, type WorkspaceRow } from '../../../shared/contract';

/**
 * A workspace's rows on disk are cut into chunks, each a file of its own: a JSON list of
 * `[key, rowNumber, cells]`. A chunk holds at most CHUNK_ROWS rows and about CHUNK_CHARS characters
 * of JSON, so no chunk comes near the longest string JavaScript can hold, and folding an edit in
 * rewrites one chunk rather than the whole workspace.
 */
export const CHUNK_ROWS = 4096;
export const CHUNK_CHARS = 8 * 1024 * 1024;

/** One chunk as a manifest lists it: its file, how many rows and how many bytes it holds. */
export interface ChunkEntry {
  file: string;
  rows: number;
  bytes: number;
}

/** The JSON text of rows, in chunks (see CHUNK_ROWS): each yielded as soon as it is full. */
export function* chunkTexts(rows: Iterable<WorkspaceRow>): Generator<{ text: string; rows: number }> {
  let pieces: string[] = [];
  let chars = 0;
  for (const row of rows) {
    const piece = JSON.stringify([row.key, row.rowNumber, row.cells]);
    if (pieces.length > 0 && (pieces.length >= CHUNK_ROWS || chars + piece.length > CHUNK_CHARS)) {
      yield { text: `[${pieces.join(',')}]`, rows: pieces.length };
      pieces = [];
      chars = 0;
    }
    pieces.push(piece);
    chars += piece.length + 1;
  }
  if (pieces.length > 0) yield { text: `[${pieces.join(',')}]`, rows: pieces.length };
}

/**
 * The same chunks as chunkTexts, for rows handed over one at a time (a file read in passes): each
 * full chunk is kept in `full` until taken, so its writer can wait for the disk between two rows.
 */
export class ChunkCutter {
  private pieces: string[] = [];
  private chars = 0;
  readonly full: Array<{ text: string; rows: number }> = [];

  add(row: WorkspaceRow): void {
    const piece = JSON.stringify([row.key, row.rowNumber, row.cells]);
    if (
      this.pieces.length > 0 &&
      (this.pieces.length >= CHUNK_ROWS || this.chars + piece.length > CHUNK_CHARS)
    )
      this.cut();
    this.pieces.push(piece);
    this.chars += piece.length + 1;
  }

  /** The last chunk, however small, goes to `full`. */
  end(): void {
    if (this.pieces.length > 0) this.cut();
  }

  private cut(): void {
    this.full.push({ text: `[${this.pieces.join(',')}]`, rows: this.pieces.length });
    this.pieces = [];
    this.chars = 0;
  }
}

/** Packed rows one row at a time, keyed 0, 1, 2…, without unpacking all of them at once. */
export function* rowsOfPacked(packed: PackedRows): Generator<WorkspaceRow> {
  const step = 1024;
  const { lengths } = packed;
  const numbers = typeof lengths === 'string' ? null : lengths;
  if (!numbers) {
    // Lengths still in base64 (never the case for rows a renderer sent): unpack them whole.
    yield* unpackRows(packed);
    return;
  }
  let at = 0;
  for (let start = 0; start < packed.rowNumbers.length; start += step) {
    const count = Math.min(step, packed.rowNumbers.length - start);
    const cellsFrom = start * packed.width;
    const cellsTo = cellsFrom + count * packed.width;
    let chars = 0;
    for (let i = cellsFrom; i < cellsTo; i++) chars += numbers[i] as number;
    const part = unpackRows({
      texts: packed.texts.slice(at, at + chars),
      lengths: numbers.subarray(cellsFrom, cellsTo),
      rowNumbers: packed.rowNumbers.slice(start, start + count),
      width: packed.width,
    });
    at += chars;
    for (const row of part) yield { ...row, key: row.key + start };
  }
}

/** The rows of one chunk file's text; throws when the text is not one. */
export function parseChunk(text: string): WorkspaceRow[] {
  const list: unknown = JSON.parse(text);
  if (!Array.isArray(list)) throw new Error('not a list');
  const rows = new Array<WorkspaceRow>(list.length);
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (!Array.isArray(item) || item.length !== 3) throw new Error('not a row');
    const [key, rowNumber, cells] = item as [unknown, unknown, unknown];
    if (!Number.isSafeInteger(key) || (key as number) < 0) throw new Error('bad key');
    if (rowNumber !== null && (!Number.isSafeInteger(rowNumber) || (rowNumber as number) <= 0))
      throw new Error('bad row number');
    if (!Array.isArray(cells) || !cells.every((c) => typeof c === 'string')) throw new Error('bad cells');
    rows[i] = { key: key as number, rowNumber: rowNumber as number | null, cells: cells as string[] };
  }
  return rows;
}

/** A chunk read into memory: its rows, the file it came from (null once changed) and whether it changed. */
export interface LoadedChunk {
  file: string | null;
  bytes: number;
  rows: WorkspaceRow[];
}

/**
 * A workspace's rows chunk by chunk, with edits applied exactly as applyEdits applies them to the
 * whole list (a test holds the two to the same result); a chunk an edit touches loses its file and
 * is written again when the edits are folded in. The rest of the workspace is left as it is on disk.
 */
export class ChunkedRows {
  private chunkOfKey: Map<number, LoadedChunk> | null = null;

  constructor(readonly chunks: LoadedChunk[]) {}

  get rowCount(): number {
    return this.chunks.reduce((sum, c) => sum + c.rows.length, 0);
  }

  /** Every row in order (a new list; the rows themselves are shared). */
  rows(): WorkspaceRow[] {
    const all = new Array<WorkspaceRow>(this.rowCount);
    let at = 0;
    for (const chunk of this.chunks) for (const row of chunk.rows) all[at++] = row;
    return all;
  }

  private chunkOf(key: number): LoadedChunk | undefined {
    if (!this.chunkOfKey) {
      this.chunkOfKey = new Map();
      for (const chunk of this.chunks) for (const row of chunk.rows) this.chunkOfKey.set(row.key, chunk);
    }
    return this.chunkOfKey.get(key);
  }

  /** Applies the row edits (set, insert, delete); the others concern the manifest and are skipped. */
  apply(edits: readonly WorkspaceEdit[]): void {
    for (const edit of edits) {
      switch (edit.op) {
        case 'set': {
          const chunk = this.chunkOf(edit.key);
          const row = chunk?.rows.find((r) => r.key === edit.key);
          if (!chunk || !row) break;
          while (row.cells.length <= edit.column) row.cells.push('');
          row.cells[edit.column] = edit.value;
          chunk.file = null;
          break;
        }
        case 'insert': {
          let index = edit.index;
          let chunk = this.chunks.find((c) => {
            if (index <= c.rows.length) return true;
            index -= c.rows.length;
            return false;
          });
          if (!chunk) {
            chunk = this.chunks.at(-1);
            index = chunk?.rows.length ?? 0;
          }
          if (!chunk) {
            chunk = { file: null, bytes: 0, rows: [] };
            this.chunks.push(chunk);
          }
          chunk.rows.splice(index, 0, { ...edit.row, cells: [...edit.row.cells] });
          chunk.file = null;
          this.chunkOfKey?.set(edit.row.key, chunk);
          break;
        }
        case 'delete': {
          const chunk = this.chunkOf(edit.key);
          const at = chunk ? chunk.rows.findIndex((r) => r.key === edit.key) : -1;
          if (!chunk || at < 0) break;
          chunk.rows.splice(at, 1);
          chunk.file = null;
          // Another row with the same key (rows inserted with a key in use) is found again by search.
          this.chunkOfKey = null;
          break;
        }
        default:
          break;
      }
    }
  }
}
