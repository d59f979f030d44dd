import { z } from 'zod';
import { MAX_CELL_LENGTH, MAX_WORKSPACE_TEXT, withinWorkspaceLimits, type WorkspaceRow } from './workspace';

/**
 * Many rows in compact form, for a new workspace: every cell's text one after another in one
 * string, and how long each is. A list of 100,000 row objects costs about a second to encode, send,
 * parse and check as JSON (or to copy between threads); one long text and a list of numbers in
 * bytes cost a small part of that, on every side. Rows are keyed 0, 1, 2… in order.
 *
 * This is the form main keeps in a new workspace's file: `lengths` in base64 there (JSON has no
 * bytes), and as the numbers themselves once read.
 */
export interface PackedRows {
  /** Every cell's text, row after row, `width` cells a row. */
  texts: string;
  /** How many characters (UTF-16 units) of `texts` each cell takes; base64 as encodeLengths writes it. */
  lengths: string | Uint32Array;
  /** Each row's spreadsheet row number, or null for a row added in the app. */
  rowNumbers: (number | null)[];
  width: number;
}

/**
 * Packed rows as the renderer sends them, all bytes: the texts in UTF-8, and the lengths and row
 * numbers as 32-bit little-endian numbers (row number 0 for a row added in the app).
 */
export interface PackedRowsInput {
  texts: Uint8Array;
  lengths: Uint8Array;
  rowNumbers: Uint8Array;
  width: number;
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

const isRowNumber = (n: unknown): boolean => n === null || (Number.isSafeInteger(n) && (n as number) > 0);

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;

type NativeBase64 = { toBase64?: () => string };
type NativeFromBase64 = { fromBase64?: (text: string) => Uint8Array };

function bytesToBase64(bytes: Uint8Array): string {
  const native = (bytes as NativeBase64).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  const parts: string[] = [];
  const codes: number[] = [];
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    codes.push(
      BASE64.charCodeAt(n >> 18),
      BASE64.charCodeAt((n >> 12) & 63),
      BASE64.charCodeAt((n >> 6) & 63),
      BASE64.charCodeAt(n & 63),
    );
    if (codes.length >= 8192) parts.push(String.fromCharCode(...codes.splice(0)));
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] as number) << 16) | (rest > 1 ? (bytes[i + 1] as number) << 8 : 0);
    codes.push(BASE64.charCodeAt(n >> 18), BASE64.charCodeAt((n >> 12) & 63));
    codes.push(rest > 1 ? BASE64.charCodeAt((n >> 6) & 63) : 61, 61);
  }
  parts.push(String.fromCharCode(...codes));
  return parts.join('');
}

/** Standard base64 with padding; null when the text is not that. */
function base64ToBytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const native = (Uint8Array as NativeFromBase64).fromBase64;
  if (typeof native === 'function') {
    try {
      return native(text);
    } catch {
      return null;
    }
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < text.length; i += 4) {
    const a = BASE64_VALUE[text.charCodeAt(i)] ?? -1;
    const b = BASE64_VALUE[text.charCodeAt(i + 1)] ?? -1;
    const last = i + 4 === text.length;
    const c = last && padding === 2 ? 0 : (BASE64_VALUE[text.charCodeAt(i + 2)] ?? -1);
    const d = last && padding >= 1 ? 0 : (BASE64_VALUE[text.charCodeAt(i + 3)] ?? -1);
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    bytes[out++] = n >> 16;
    if (out < bytes.length) bytes[out++] = (n >> 8) & 255;
    if (out < bytes.length) bytes[out++] = n & 255;
  }
  return bytes;
}

/** Cell lengths as PackedRows carries them. */
export function encodeLengths(lengths: ArrayLike<number>): string {
  const bytes = new Uint8Array(lengths.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < lengths.length; i++) view.setUint32(i * 4, lengths[i] as number, true);
  return bytesToBase64(bytes);
}

/** The cell lengths back, or null when the text is not a list of them. */
export function decodeLengths(text: string): Uint32Array | null {
  const bytes = base64ToBytes(text);
  if (!bytes || bytes.length % 4 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengths = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < lengths.length; i++) lengths[i] = view.getUint32(i * 4, true);
  return lengths;
}

/** The rules of packed rows, checked by hand (zod would visit every number). */
export function isPackedRows(value: unknown): value is PackedRows {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const name in value) {
    if (Object.hasOwn(value, name) && !['texts', 'lengths', 'rowNumbers', 'width'].includes(name))
      return false;
  }
  const { texts, lengths, rowNumbers, width } = value as Record<string, unknown>;
  if (typeof texts !== 'string' || !Array.isArray(rowNumbers) || texts.length > MAX_WORKSPACE_TEXT)
    return false;
  if (!Number.isSafeInteger(width) || (width as number) < 0) return false;
  if (!withinWorkspaceLimits(rowNumbers.length, width as number)) return false;
  for (let r = 0; r < rowNumbers.length; r++) if (!isRowNumber(rowNumbers[r])) return false;
  const numbers =
    typeof lengths === 'string' ? decodeLengths(lengths) : lengths instanceof Uint32Array ? lengths : null;
  if (!numbers || numbers.length !== rowNumbers.length * (width as number)) return false;
  let total = 0;
  for (let i = 0; i < numbers.length; i++) {
    const length = numbers[i] as number;
    if (length > MAX_CELL_LENGTH) return false;
    total += length;
  }
  return total === texts.length;
}

/** The numbers in 32-bit little-endian bytes, or null when the bytes are not a whole number of them. */
function lengthsOfBytes(bytes: Uint8Array): Uint32Array | null {
  if (bytes.byteLength % 4 !== 0) return null;
  if (littleEndian) {
    // The bytes as they are (copied only to line them up on a 4-byte boundary; the constructor
    // copies, where a Node Buffer's slice() would only make a view).
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengths = new Uint32Array(bytes.byteLength / 4);
  for (let i = 0; i < lengths.length; i++) lengths[i] = view.getUint32(i * 4, true);
  return lengths;
}

/** The bytes a renderer sends decoded: texts from UTF-8 (refused when not valid), lengths as numbers. */
function decodeInput(value: unknown): PackedRows | null {
  if (typeof value !== 'object' || value === null) return null;
  const { texts, lengths, rowNumbers, width } = value as Record<string, unknown>;
  if (!(texts instanceof Uint8Array) || !(lengths instanceof Uint8Array)) return null;
  for (const name in value) {
    if (Object.hasOwn(value, name) && !['texts', 'lengths', 'rowNumbers', 'width'].includes(name))
      return null;
  }
  // Sizes first, before anything is unpacked: fifty million empty rows must cost nothing to refuse.
  if (!(rowNumbers instanceof Uint8Array) || typeof width !== 'number') return null;
  if (!withinWorkspaceLimits(rowNumbers.byteLength / 4, width)) return null;
  // UTF-8 takes at least one byte a character: more bytes than that could be too much text.
  if (texts.byteLength > 4 * MAX_WORKSPACE_TEXT) return null;
  const numbers = lengthsOfBytes(lengths);
  const rowNumberValues = lengthsOfBytes(rowNumbers);
  if (!numbers || !rowNumberValues) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(texts);
  } catch {
    return null;
  }
  const decoded = {
    texts: text,
    lengths: numbers,
    rowNumbers: Array.from(rowNumberValues, (n) => n || null),
    width,
  };
  return isPackedRows(decoded) ? decoded : null;
}

/** Each input is decoded once: while it is checked, and the result kept for the transform. */
const decodedInputs = new WeakMap<object, PackedRows>();

/**
 * Packed rows as main takes them: the bytes are checked (valid UTF-8, one length per cell, lengths
 * that add up to the text) and handed to the service decoded.
 */
export const packedRowsInputSchema = z
  .custom<PackedRowsInput>(
    (value) => {
      const decoded = decodeInput(value);
      if (decoded) decodedInputs.set(value as object, decoded);
      return decoded !== null;
    },
    {
      message:
        'Packed rows must be {texts, lengths, rowNumbers, width}: UTF-8 texts and one 32-bit length per cell, adding up to the texts, with at most 1,048,576 rows, 1,000 columns, 16,777,216 cells, 32,767 characters a cell and 640,000,000 characters in all.',
    },
  )
  .transform((value) => decodedInputs.get(value) ?? (decodeInput(value) as PackedRows));

/** 32-bit numbers as little-endian bytes: a view of the same memory where the machine is little-endian. */
export function littleEndianBytes(numbers: Uint32Array | Int32Array): Uint8Array {
  if (littleEndian) return new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength);
  const bytes = new Uint8Array(numbers.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < numbers.length; i++) view.setUint32(i * 4, numbers[i] as number, true);
  return bytes;
}

/** Packed rows as the renderer sends them (see PackedRowsInput); row number 0 stands for none. */
export function packedRowsInput(packed: {
  texts: string;
  lengths: Uint32Array | Int32Array;
  rowNumbers: Uint32Array | Int32Array;
  width: number;
}): PackedRowsInput {
  return {
    texts: new TextEncoder().encode(packed.texts),
    lengths: littleEndianBytes(packed.lengths),
    rowNumbers: littleEndianBytes(packed.rowNumbers),
    width: packed.width,
  };
}

/**
 * The rows again, keyed 0, 1, 2… Lengths and row numbers may also come as typed arrays (where 0
 * stands for no row number), as they do between threads.
 */
export function unpackRows(packed: {
  texts: string;
  lengths: string | ArrayLike<number>;
  rowNumbers: ArrayLike<number | null>;
  width: number;
}): WorkspaceRow[] {
  const { texts, rowNumbers, width } = packed;
  const lengths = typeof packed.lengths === 'string' ? decodeLengths(packed.lengths) : packed.lengths;
  if (!lengths) throw new Error('The packed rows are damaged.');
  const rows = new Array<WorkspaceRow>(rowNumbers.length);
  let cell = 0;
  let at = 0;
  for (let r = 0; r < rowNumbers.length; r++) {
    const cells: string[] = [];
    for (let c = 0; c < width; c++) {
      const end = at + (lengths[cell++] as number);
      cells.push(texts.slice(at, end));
      at = end;
    }
    rows[r] = { key: r, rowNumber: rowNumbers[r] || null, cells };
  }
  return rows;
}

/** Rows packed, each given `width` cells (missing ones empty, extra ones left out). */
export function packRows(
  rows: readonly { rowNumber: number | null; cells: readonly string[] }[],
  width: number,
): { texts: string; lengths: Int32Array; rowNumbers: Int32Array; width: number } {
  const pieces = new Array<string>(rows.length * width);
  const lengths = new Int32Array(rows.length * width);
  const rowNumbers = new Int32Array(rows.length);
  let cell = 0;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as { rowNumber: number | null; cells: readonly string[] };
    rowNumbers[r] = row.rowNumber ?? 0;
    for (let c = 0; c < width; c++) {
      const text = row.cells[c] ?? '';
      pieces[cell] = text;
      lengths[cell++] = text.length;
    }
  }
  return { texts: pieces.join(''), lengths, rowNumbers, width };
}
