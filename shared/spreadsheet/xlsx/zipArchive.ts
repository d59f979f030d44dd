import { Inflate, inflateRaw } from 'pako';
import { SpreadsheetReadError } from '../errors';
import { FastReaderUnsupported } from './fastReaderUnsupported';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** The end record is 22 bytes plus a comment of at most 65535. */
const MAX_END_SEARCH = 22 + 0xffff;

const corrupt = (): SpreadsheetReadError =>
  new SpreadsheetReadError(
    'The workbook file is damaged or incomplete (its zip structure cannot be read). Open it in Excel, save it again, and import the new copy.',
  );

/**
 * The key a part is found by: case-insensitive as OPC requires, and with the backslashes some
 * Windows tools write (`xl\\worksheets\\sheet1.xml`) read as the slashes they stand for.
 */
const partKey = (name: string): string => name.replace(/\\/g, '/').replace(/^\//, '').toLowerCase();

/**
 * Reads a zip's central directory (the index at its end) so single parts can be inflated without
 * touching the rest. Part names are matched case-insensitively, as OPC packages require.
 */
export class ZipArchive {
  private readonly entries = new Map<string, ZipEntry>();
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readCentralDirectory();
  }

  private readCentralDirectory(): void {
    const view = this.view;
    const length = this.bytes.length;
    let end = -1;
    for (let i = length - 22; i >= Math.max(0, length - MAX_END_SEARCH); i--) {
      if (view.getUint32(i, true) === END_OF_CENTRAL_DIRECTORY) {
        end = i;
        break;
      }
    }
    if (end === -1) throw corrupt();
    const count = view.getUint16(end + 10, true);
    const directorySize = view.getUint32(end + 12, true);
    let offset = view.getUint32(end + 16, true);
    if (count === 0xffff || offset === 0xffffffff || directorySize === 0xffffffff) {
      throw new FastReaderUnsupported('the workbook uses the Zip64 format');
    }
    const names = new TextDecoder('utf-8');
    for (let n = 0; n < count; n++) {
      if (offset + 46 > length || view.getUint32(offset, true) !== CENTRAL_FILE_HEADER) throw corrupt();
      const flags = view.getUint16(offset + 8, true);
      const nameLength = view.getUint16(offset + 28, true);
      const extraLength = view.getUint16(offset + 30, true);
      const commentLength = view.getUint16(offset + 32, true);
      const name = names.decode(this.bytes.subarray(offset + 46, offset + 46 + nameLength));
      if (flags & 1) throw new FastReaderUnsupported('its parts are encrypted');
      const entry: ZipEntry = {
        name,
        method: view.getUint16(offset + 10, true),
        compressedSize: view.getUint32(offset + 20, true),
        uncompressedSize: view.getUint32(offset + 24, true),
        localHeaderOffset: view.getUint32(offset + 42, true),
      };
      this.entries.set(partKey(name), entry);
      offset += 46 + nameLength + extraLength + commentLength;
    }
  }

  find(name: string): ZipEntry | undefined {
    return this.entries.get(partKey(name));
  }

  /** The entry's compressed bytes, as a view of the input (never a copy, never modified). */
  compressedData(entry: ZipEntry): Uint8Array {
    const view = this.view;
    const header = entry.localHeaderOffset;
    if (header + 30 > this.bytes.length || view.getUint32(header, true) !== LOCAL_FILE_HEADER)
      throw corrupt();
    const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw corrupt();
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw new FastReaderUnsupported(`a part uses zip compression method ${entry.method}`);
    }
    return this.bytes.subarray(start, end);
  }

  /** The whole entry, inflated. For the small parts: workbook, relationships, styles, strings. */
  read(entry: ZipEntry): Uint8Array {
    const data = this.compressedData(entry);
    if (entry.method === STORED) return data;
    try {
      return inflateRaw(data);
    } catch {
      throw corrupt();
    }
  }

  readText(name: string): string | undefined {
    const entry = this.find(name);
    return entry ? new TextDecoder('utf-8').decode(this.read(entry)) : undefined;
  }
}

const INPUT_SLICE = 256 * 1024;

/**
 * Inflates raw deflate data piece by piece, handing out the output in order. Between input pieces it
 * awaits `between`, which reports progress, yields, or throws to cancel.
 */
export type RawInflater = (
  compressed: Uint8Array,
  onChunk: (chunk: Uint8Array) => void,
  between: (done: number, total: number) => Promise<void> | void,
) => Promise<void>;

/** Inflation in JavaScript (pako): the same everywhere, and faster than Node's DecompressionStream. */
export const javaScriptInflater: RawInflater = async (data, onChunk, between) => {
  const total = data.length;
  const inflater = new Inflate({ raw: true, chunkSize: 512 * 1024 });
  inflater.onData = onChunk;
  for (let offset = 0; offset < total || offset === 0; offset += INPUT_SLICE) {
    inflater.push(
      data.subarray(offset, Math.min(total, offset + INPUT_SLICE)),
      offset + INPUT_SLICE >= total,
    );
    if (inflater.err) throw corrupt();
    await between(Math.min(total, offset + INPUT_SLICE), total);
  }
};

/**
 * Inflation by the runtime's own zlib through `DecompressionStream('deflate-raw')`. In Chromium this
 * runs natively on the calling thread and is several times faster than pako; in Node the stream goes
 * through the thread pool in 16 KB pieces and is slower, so the CLI keeps the JavaScript inflater.
 */
export const streamInflater: RawInflater = async (data, onChunk, between) => {
  const total = data.length;
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // Errors of the caller's own (a cancel, a reader that declines the sheet) pass through as they are;
  // any other error comes from the stream and means the data is damaged.
  const own: { error?: unknown } = {};
  const mine = async (work: () => Promise<void> | void): Promise<void> => {
    try {
      await work();
    } catch (error) {
      own.error ??= error;
      throw error;
    }
  };
  const writing = (async () => {
    for (let offset = 0; offset < total; offset += INPUT_SLICE) {
      const end = Math.min(total, offset + INPUT_SLICE);
      await writer.write(data.subarray(offset, end) as Uint8Array<ArrayBuffer>);
      await mine(() => between(end, total));
    }
    await writer.close();
  })();
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      // Called as it is, not through `mine`: one more promise per 16 KB piece adds up.
      try {
        onChunk(value);
      } catch (error) {
        own.error ??= error;
        throw error;
      }
    }
  })();
  try {
    await Promise.all([writing, reading]);
  } catch (error) {
    await Promise.allSettled([writer.abort(error), reader.cancel(error)]);
    if ('error' in own) throw own.error;
    throw corrupt();
  }
};

/**
 * Inflates an entry piece by piece, so a large part never has to exist in memory twice. Chunks
 * arrive in order; between them `between` may report progress, yield, or throw to cancel.
 */
export async function inflateEntry(
  archive: ZipArchive,
  entry: ZipEntry,
  onChunk: (chunk: Uint8Array) => void,
  between: (done: number, total: number) => Promise<void> | void,
  inflater: RawInflater = javaScriptInflater,
): Promise<void> {
  const data = archive.compressedData(entry);
  const total = data.length;
  if (entry.method === STORED) {
    for (let offset = 0; offset < total; offset += INPUT_SLICE) {
      onChunk(data.subarray(offset, Math.min(total, offset + INPUT_SLICE)));
      await between(Math.min(total, offset + INPUT_SLICE), total);
    }
    return;
  }
  await inflater(data, onChunk, between);
}
