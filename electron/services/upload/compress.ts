import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { DonationAttributes } from '../../../shared/donation';
import { serializeBulkFile } from '../../../shared/bulk-file/serializeBulkFile';

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

export async function gunzipText(gz: Uint8Array): Promise<string> {
  return (await gunzipAsync(gz)).toString('utf8');
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
