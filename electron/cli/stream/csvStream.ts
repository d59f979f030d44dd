import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { SheetRow, TextEncoding } from '../../../shared/spreadsheet';
import { ChunkedDelimitedReader } from '../../../shared/spreadsheet/text/chunkedDelimited';
import { detectDelimiter } from '../../../shared/spreadsheet/text/delimiter';
import {
  guessUtf16WithoutBom,
  guessUtf32WithoutBom,
  readsAsShiftJis,
} from '../../../shared/spreadsheet/text/encoding';
import { decodeWindows1252 } from '../../../shared/spreadsheet/text/windows1252';

/** Bytes read from disk at a time. */
const PIECE_BYTES = 1 << 20;
/** Bytes looked at to tell Shift-JIS from Windows-1252 in a file that is not UTF-8. */
const LEGACY_SAMPLE_BYTES = 4 << 20;
/** Characters the delimiter is detected from (as detectDelimiter samples a whole text). */
const DELIMITER_SAMPLE_BYTES = 256 * 1024;

/** Thrown by a pass when the file turns out not to be UTF-8 after all. */
class NotUtf8 extends Error {}

/** Text decoding of one pass, piece by piece. */
interface PieceDecoder {
  decode(bytes: Uint8Array, last: boolean): string;
}

function decoderFor(encoding: TextEncoding, fatal: boolean): PieceDecoder {
  if (encoding === 'windows-1252') return { decode: (bytes) => decodeWindows1252(bytes) };
  const decoder = new TextDecoder(encoding, { fatal, ignoreBOM: true });
  return {
    decode(bytes, last) {
      try {
        return decoder.decode(bytes, { stream: !last });
      } catch {
        throw new NotUtf8();
      }
    },
  };
}

/** The first `length` bytes of a file (fewer if it is shorter). */
export async function readHead(path: string, length: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A sample cut at its last line end, so no character is cut in two. */
function atLineEnd(bytes: Uint8Array): Uint8Array {
  const end = bytes.lastIndexOf(10);
  return end > 0 ? bytes.subarray(0, end + 1) : bytes;
}

export interface CsvPassHooks {
  onRow(row: SheetRow): void;
  /** After each piece read: progress in bytes, and a pause for whoever writes to keep up. */
  between(done: number, total: number): Promise<void>;
}

/** A delimited text file read in pieces, as often as needed, in the encoding and delimiter found once. */
export interface CsvStream {
  encoding: TextEncoding;
  delimiter: string;
  /**
   * One pass over every record. The first may learn part-way that the file is not UTF-8: it then
   * starts again in the encoding the file reads as, with fresh hooks from `start`.
   */
  pass(start: () => CsvPassHooks): Promise<void>;
}

/**
 * Opens a CSV, TSV or TXT file for reading in pieces, with the encoding rules of decodeText: a BOM,
 * then UTF-16's NUL pattern, then UTF-8, and if bytes turn out not to be UTF-8, Shift-JIS or
 * Windows-1252 as a sample of the file reads. UTF-32, rare and never large, is left to the whole-file
 * reader (undefined is returned).
 */
export async function openCsvStream(
  path: string,
  size: number,
  preferredDelimiter: string,
): Promise<CsvStream | undefined> {
  const head = await readHead(path, Math.min(size, LEGACY_SAMPLE_BYTES));
  const b = head;
  if (
    (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) ||
    (b[0] === 0 && b[1] === 0 && b[2] === 0xfe)
  )
    return undefined;
  let encoding: TextEncoding;
  let skip = 0;
  let tentative = false;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) [encoding, skip] = ['utf-8', 3];
  else if (b[0] === 0xff && b[1] === 0xfe) [encoding, skip] = ['utf-16le', 2];
  else if (b[0] === 0xfe && b[1] === 0xff) [encoding, skip] = ['utf-16be', 2];
  else if (guessUtf32WithoutBom(b)) return undefined;
  else {
    const utf16 = guessUtf16WithoutBom(b);
    if (utf16) encoding = utf16;
    else [encoding, tentative] = ['utf-8', true];
  }
  const legacy = (): TextEncoding => (readsAsShiftJis(atLineEnd(head)) ? 'shift_jis' : 'windows-1252');
  const sampleText = (): string =>
    decoderFor(encoding, false).decode(head.subarray(skip, skip + DELIMITER_SAMPLE_BYTES), false);
  let delimiter: string;
  try {
    delimiter = detectDelimiter(
      tentative
        ? decoderFor(encoding, true).decode(atLineEnd(head.subarray(0, DELIMITER_SAMPLE_BYTES)), false)
        : sampleText(),
      preferredDelimiter,
    );
  } catch (e) {
    if (!(e instanceof NotUtf8)) throw e;
    [encoding, tentative] = [legacy(), false];
    delimiter = detectDelimiter(sampleText(), preferredDelimiter);
  }

  const stream: CsvStream = {
    encoding,
    delimiter,
    async pass(start) {
      for (;;) {
        try {
          const hooks = start();
          await readPass(path, skip, size, decoderFor(stream.encoding, tentative), stream.delimiter, hooks);
          tentative = false;
          return;
        } catch (e) {
          if (!(e instanceof NotUtf8) || !tentative) throw e;
          // Not UTF-8 after all: the pass starts again in the encoding the file reads as.
          stream.encoding = legacy();
          tentative = false;
        }
      }
    },
  };
  return stream;
}

async function readPass(
  path: string,
  skip: number,
  size: number,
  decoder: PieceDecoder,
  delimiter: string,
  hooks: CsvPassHooks,
): Promise<void> {
  const reader = new ChunkedDelimitedReader(delimiter, hooks.onRow);
  let done = skip;
  for await (const piece of createReadStream(path, { start: skip, highWaterMark: PIECE_BYTES })) {
    const bytes = piece as Buffer;
    done += bytes.length;
    reader.push(decoder.decode(bytes, false));
    await hooks.between(done, size);
  }
  reader.push(decoder.decode(new Uint8Array(0), true));
  reader.finish();
}
