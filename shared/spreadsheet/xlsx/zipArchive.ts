import { expandsTooFar } from '../errors';
import { READ_LIMITS, type ReadLimits } from '../limits';
import { FastReaderUnsupported } from './fastReaderUnsupported';
import { InflateBudget, inflateWhole, javaScriptInflater, type RawInflater } from './inflate';
import { corruptZip as corrupt } from './zipErrors';

export { javaScriptInflater, streamInflater, type RawInflater } from './inflate';

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
const ZIP64_EXTRA = 1;
const MAX_32 = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;
/** The end record is 22 bytes plus a comment of at most 65535. */
const MAX_END_SEARCH = 22 + 0xffff;

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
  /** What the parts read so far inflated to, against the limits. */
  readonly budget: InflateBudget;

  constructor(
    private readonly bytes: Uint8Array,
    limits: Readonly<ReadLimits> = READ_LIMITS,
  ) {
    this.budget = new InflateBudget(limits);
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
      const extraStart = offset + 46 + nameLength;
      this.readZip64Sizes(entry, extraStart, Math.min(length, extraStart + extraLength));
      this.entries.set(partKey(name), entry);
      offset += 46 + nameLength + extraLength + commentLength;
    }
  }

  /**
   * A size or offset too large for 32 bits is written as 0xFFFFFFFF, with the real value in the
   * entry's Zip64 extra field (id 1), in a fixed order and only for the fields that overflowed.
   * Excel 2010 writes the field on small parts too.
   */
  private readZip64Sizes(entry: ZipEntry, start: number, end: number): void {
    const view = this.view;
    for (let at = start; at + 4 <= end;) {
      const id = view.getUint16(at, true);
      const size = view.getUint16(at + 2, true);
      const dataEnd = Math.min(end, at + 4 + size);
      if (id === ZIP64_EXTRA) {
        let field = at + 4;
        const next = (current: number): number => {
          if (current !== MAX_32 || field + 8 > dataEnd) return current;
          const value = Number(view.getBigUint64(field, true));
          field += 8;
          return value;
        };
        entry.uncompressedSize = next(entry.uncompressedSize);
        entry.compressedSize = next(entry.compressedSize);
        entry.localHeaderOffset = next(entry.localHeaderOffset);
        return;
      }
      at = dataEnd;
    }
  }

  /** Every entry, in no particular order. */
  allEntries(): ZipEntry[] {
    return [...this.entries.values()];
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

  /**
   * The whole entry, inflated. For the parts read as text (workbook, relationships, styles, shared
   * strings): refused past `maxTextPartBytes`, by the size the entry declares or, when that lies,
   * as soon as the output passes it.
   */
  read(entry: ZipEntry): Uint8Array {
    const limit = this.budget.limits.maxTextPartBytes;
    if (entry.uncompressedSize > limit) throw expandsTooFar(limit);
    const data = this.compressedData(entry);
    const count = this.budget.part(limit);
    if (entry.method === STORED) {
      count(data.length);
      return data;
    }
    return inflateWhole(data, count);
  }

  readText(name: string): string | undefined {
    const entry = this.find(name);
    return entry ? new TextDecoder('utf-8').decode(this.read(entry)) : undefined;
  }
}

const STORED_SLICE = 256 * 1024;

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
  limit: number = archive.budget.limits.maxPartBytes,
): Promise<void> {
  if (entry.uncompressedSize > limit) throw expandsTooFar(limit);
  const data = archive.compressedData(entry);
  const total = data.length;
  const count = archive.budget.part(limit);
  const counted = (chunk: Uint8Array): void => {
    count(chunk.length);
    onChunk(chunk);
  };
  if (entry.method === STORED) {
    for (let offset = 0; offset < total; offset += STORED_SLICE) {
      counted(data.subarray(offset, Math.min(total, offset + STORED_SLICE)));
      await between(Math.min(total, offset + STORED_SLICE), total);
    }
    return;
  }
  await inflater(data, counted, between);
}
