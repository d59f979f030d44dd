import type { DonationAttributes } from '../donation';
import { bulkEntry } from './buildBulkFile';

export interface SerializeOptions {
  /** Emit a chunk once it holds about this many characters. Default 1 MiB. */
  chunkChars?: number;
}

const OPEN = '{"data":[';
const CLOSE = ']}';

/**
 * Writes a bulk file as JSON text in chunks, so 100k+ donations (or rows with 100 long metadata
 * pairs) never become one string near V8's ~512M-character limit. The chunks joined are exactly
 * `JSON.stringify(buildBulkFile(donations))`; main pipes them into gzip.
 */
export function* serializeBulkFile(
  donations: Iterable<DonationAttributes>,
  options: SerializeOptions = {},
): Generator<string, void, undefined> {
  const limit = options.chunkChars ?? 1 << 20;
  let parts: string[] = [OPEN];
  let size = OPEN.length;
  let first = true;
  for (const attributes of donations) {
    const entry = (first ? '' : ',') + JSON.stringify(bulkEntry(attributes));
    first = false;
    parts.push(entry);
    size += entry.length;
    if (size >= limit) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  parts.push(CLOSE);
  yield parts.join('');
}

/** Bytes a string takes in UTF-8, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export interface BulkFilePart {
  /** First donation index in this file. */
  start: number;
  /** One past the last donation index. */
  end: number;
  /** Size of this file's JSON in UTF-8 bytes, before gzip. */
  bytes: number;
}

/**
 * Splits donations into several bulk files so none exceeds `maxRows` donations or `maxBytes` of
 * JSON (before gzip). Order is kept; a single donation larger than maxBytes still gets a file of
 * its own rather than being dropped.
 */
export function planBulkFiles(
  donations: readonly DonationAttributes[],
  limits: { maxRows?: number; maxBytes?: number },
): BulkFilePart[] {
  const maxRows = limits.maxRows ?? Number.POSITIVE_INFINITY;
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const frame = OPEN.length + CLOSE.length;
  const parts: BulkFilePart[] = [];
  let start = 0;
  let bytes = frame;
  for (let i = 0; i < donations.length; i++) {
    const entryBytes = utf8Length(JSON.stringify(bulkEntry(donations[i] as DonationAttributes)));
    const withComma = i === start ? entryBytes : entryBytes + 1;
    if (i > start && (i - start >= maxRows || bytes + withComma > maxBytes)) {
      parts.push({ start, end: i, bytes });
      start = i;
      bytes = frame + entryBytes;
    } else bytes += withComma;
  }
  if (donations.length > start) parts.push({ start, end: donations.length, bytes });
  return parts;
}

/** The same chunks from an async source (rows read from a workspace store as they are needed). */
export async function* serializeBulkFileAsync(
  donations: AsyncIterable<DonationAttributes> | Iterable<DonationAttributes>,
  options: SerializeOptions = {},
): AsyncGenerator<string, void, undefined> {
  const limit = options.chunkChars ?? 1 << 20;
  let parts: string[] = [OPEN];
  let size = OPEN.length;
  let first = true;
  for await (const attributes of donations) {
    const entry = (first ? '' : ',') + JSON.stringify(bulkEntry(attributes));
    first = false;
    parts.push(entry);
    size += entry.length;
    if (size >= limit) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  parts.push(CLOSE);
  yield parts.join('');
}
