import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { DonationAttributes } from '../../../shared/donation';
import { serializeBulkFile } from '../../../shared/bulk-file/serializeBulkFile';
import { writeFileAtomicWith } from '../storage/atomicFile';

const gunzipAsync = promisify(gunzip);

export interface CompressedFile {
  gz: Buffer;
  /** sha256 of the .gz, hex: the ledger's proof of which bytes went out. */
  sha256: string;
  /** Characters of JSON before compression. */
  jsonChars: number;
}

/**
 * The bulk file streamed as JSON chunks into node:zlib's gzip, which compresses on the thread pool:
 * the event loop only serializes ~1 MiB at a time (measured in scripts/bench-upload.mjs against pako,
 * which blocks its thread for the whole file). Never one giant string, so V8's string limit is no bound.
 */
export async function gzipBulkFile(
  donations: readonly DonationAttributes[],
  onProgress?: (donationsDone: number, total: number) => void,
): Promise<CompressedFile> {
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  let jsonChars = 0;
  const total = donations.length;
  const counted = (function* () {
    for (let i = 0; i < donations.length; i++) {
      if (i % 5000 === 0) onProgress?.(i, total);
      yield donations[i] as DonationAttributes;
    }
  })();
  const source = Readable.from(
    (function* () {
      for (const chunk of serializeBulkFile(counted)) {
        jsonChars += chunk.length;
        yield Buffer.from(chunk, 'utf8');
      }
    })(),
  );
  await pipeline(source, createGzip({ level: 6 }), async (compressed: AsyncIterable<Buffer>) => {
    for await (const chunk of compressed) {
      chunks.push(chunk);
      hash.update(chunk);
    }
  });
  onProgress?.(total, total);
  return { gz: Buffer.concat(chunks), sha256: hash.digest('hex'), jsonChars };
}

/** A part's gzip file as written to disk: never held whole in memory. */
export interface WrittenFile {
  /** sha256 of the .gz, hex, computed as the bytes went to disk. */
  sha256: string;
  /** Size of the .gz in bytes. */
  bytes: number;
  /** Characters of JSON before compression. */
  jsonChars: number;
}

/**
 * The bulk file streamed donation by donation into gzip and from there straight to `path`, its
 * SHA-256 taken on the way: the same bytes gzipBulkFile gives (deflate does not depend on how its
 * input is cut), but neither the JSON nor the compressed file is ever whole in memory, only about
 * 1 MiB of JSON and what gzip holds. Written to a temporary file, synced, then renamed into place, so
 * a crash leaves either no file or the whole one.
 */
export async function gzipBulkFileTo(
  path: string,
  donations: Iterable<DonationAttributes>,
  total: number,
  onProgress?: (donationsDone: number, total: number) => void,
): Promise<WrittenFile> {
  const hash = createHash('sha256');
  let jsonChars = 0;
  let bytes = 0;
  const counted = (function* () {
    let i = 0;
    for (const donation of donations) {
      if (i % 5000 === 0) onProgress?.(i, total);
      i++;
      yield donation;
    }
  })();
  const source = Readable.from(
    (function* () {
      for (const chunk of serializeBulkFile(counted)) {
        jsonChars += chunk.length;
        yield Buffer.from(chunk, 'utf8');
      }
    })(),
  );
  await writeFileAtomicWith(path, (handle) =>
    pipeline(source, createGzip({ level: 6 }), async (compressed: AsyncIterable<Buffer>) => {
      for await (const chunk of compressed) {
        hash.update(chunk);
        bytes += chunk.length;
        await handle.write(chunk);
      }
    }),
  );
  onProgress?.(total, total);
  return { sha256: hash.digest('hex'), bytes, jsonChars };
}

/** sha256 (hex) and size of a file on disk, read a piece at a time. */
export async function sha256OfFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

export async function gunzipText(gz: Uint8Array): Promise<string> {
  return (await gunzipAsync(gz)).toString('utf8');
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
