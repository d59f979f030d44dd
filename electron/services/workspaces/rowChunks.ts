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

/**
 * The JSON text of rows, in chunks (see CHUNK_ROWS), each yielded as soon as it is full. A chunk is
 * `{"keys":[…],"rowNumbers":[…],"widths":[…],"lengths":[…],"texts":"…"}`: every cell's text one
 * after another in one string, and how long each is. Reading it back parses one string and a few
 * lists of numbers rather than a string per cell (a million rows of 14 cells read several times
 * faster so), and each cell is then a slice of that one string.
 */
export function* chunkTexts(rows: Iterable<WorkspaceRow>): Generator<{ text: string; rows: number }> {
  let keys: number[] = [];
  let rowNumbers: (number | null)[] = [];
  let widths: number[] = [];
  let lengths: number[] = [];
  let texts: string[] = [];
  let chars = 0;
  const chunk = () => ({
    text: `{"keys":${JSON.stringify(keys)},"rowNumbers":${JSON.stringify(rowNumbers)},"widths":${JSON.stringify(widths)},"lengths":${JSON.stringify(lengths)},"texts":${JSON.stringify(texts.join(''))}}`,
    rows: keys.length,
  });
  for (const row of rows) {
    let rowChars = 0;
    for (const cell of row.cells) rowChars += cell.length + 8;
    if (keys.length > 0 && (keys.length >= CHUNK_ROWS || chars + rowChars > CHUNK_CHARS)) {
      yield chunk();
      keys = [];
      rowNumbers = [];
      widths = [];
      lengths = [];
      texts = [];
      chars = 0;
    }
    keys.push(row.key);
    rowNumbers.push(row.rowNumber);
    widths.push(row.cells.length);
    for (const cell of row.cells) {
      lengths.push(cell.length);
      texts.push(cell);
    }
    chars += rowChars + 24;
  }
  if (keys.length > 0) yield chunk();
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

const isList = (value: unknown): value is unknown[] => Array.isArray(value);

/** The rows of one chunk file's text (see chunkTexts); throws when the text is not one. */
export function parseChunk(text: string): WorkspaceRow[] {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error('not a chunk');
  const { keys, rowNumbers, widths, lengths, texts } = parsed as Record<string, unknown>;
  if (
    !isList(keys) ||
    !isList(rowNumbers) ||
    !isList(widths) ||
    !isList(lengths) ||
    typeof texts !== 'string'
  )
    throw new Error('not a chunk');
  if (rowNumbers.length !== keys.length || widths.length !== keys.length) throw new Error('lists differ');
  const rows = new Array<WorkspaceRow>(keys.length);
  let cell = 0;
  let at = 0;
  for (let r = 0; r < keys.length; r++) {
    const key = keys[r];
    const rowNumber = rowNumbers[r];
    const width = widths[r];
    if (!Number.isSafeInteger(key) || (key as number) < 0) throw new Error('bad key');
    if (rowNumber !== null && (!Number.isSafeInteger(rowNumber) || (rowNumber as number) <= 0))
      throw new Error('bad row number');
    if (!Number.isSafeInteger(width) || (width as number) < 0) throw new Error('bad width');
    const cells = new Array<string>(width as number);
    for (let c = 0; c < (width as number); c++) {
      const length = lengths[cell++];
      if (!Number.isSafeInteger(length) || (length as number) < 0) throw new Error('bad length');
      const end = at + (length as number);
      if (end > texts.length) throw new Error('texts too short');
      cells[c] = texts.slice(at, end);
      at = end;
    }
    rows[r] = { key: key as number, rowNumber: rowNumber as number | null, cells };
  }
  if (cell !== lengths.length || at !== texts.length) throw new Error('lengths do not add up');
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
