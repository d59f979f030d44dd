import { z } from 'zod';
import type { WorkspaceRow } from './workspace';

/**
 * Many rows in compact form, for a new workspace: every cell's text one after another in one
 * string, and how long each is. A list of 100,000 row objects costs about a second to encode, send,
 * parse and check as JSON (or to copy between threads); one long string and a list of numbers cost a
 * small part of that, on every side. Rows are keyed 0, 1, 2… in order.
 */
export interface PackedRows {
  /** Every cell's text, row after row, `width` cells a row. */
  texts: string;
  /** How many characters of `texts` each cell takes. */
  lengths: number[];
  /** Each row's spreadsheet row number, or null for a row added in the app. */
  rowNumbers: (number | null)[];
  width: number;
}

const isRowNumber = (n: unknown): boolean => n === null || (Number.isSafeInteger(n) && (n as number) > 0);

/** The rules of a packed list of rows, checked by hand (zod would visit every number). */
export function isPackedRows(value: unknown): value is PackedRows {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const name in value) {
    if (Object.hasOwn(value, name) && !['texts', 'lengths', 'rowNumbers', 'width'].includes(name))
      return false;
  }
  const { texts, lengths, rowNumbers, width } = value as Record<string, unknown>;
  if (typeof texts !== 'string' || !Array.isArray(lengths) || !Array.isArray(rowNumbers)) return false;
  if (!Number.isSafeInteger(width) || (width as number) < 0 || (width as number) > 1000) return false;
  if (lengths.length !== rowNumbers.length * (width as number)) return false;
  for (let r = 0; r < rowNumbers.length; r++) if (!isRowNumber(rowNumbers[r])) return false;
  let total = 0;
  for (let i = 0; i < lengths.length; i++) {
    const length: unknown = lengths[i];
    if (!Number.isSafeInteger(length) || (length as number) < 0) return false;
    total += length as number;
  }
  return total === texts.length;
}

export const packedRowsSchema = z.custom<PackedRows>(isPackedRows, {
  message:
    'Packed rows must be {texts, lengths, rowNumbers, width}: one length per cell, adding up to the length of the texts.',
});

/**
 * The rows again, keyed 0, 1, 2… Lengths and row numbers may also come as typed arrays (where 0
 * stands for no row number), as they do between threads.
 */
export function unpackRows(packed: {
  texts: string;
  lengths: ArrayLike<number>;
  rowNumbers: ArrayLike<number | null>;
  width: number;
}): WorkspaceRow[] {
  const { texts, lengths, rowNumbers, width } = packed;
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
