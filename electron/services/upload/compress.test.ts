import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBulkFile } from '../../../shared/bulk-file/buildBulkFile';
import type { DonationAttributes } from '../../../shared/donation';
import { gzipBulkFile, gzipBulkFileTo, sha256, sha256OfFile } from './compress';

/** Donations with many long metadata values, non-ASCII text and the characters JSON escapes. */
const donations: DonationAttributes[] = Array.from({ length: 1_500 }, (_, i) => ({
  destination: { recipientId: `250-${100000 + (i % 50)}` },
  funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'EUR', amount: 100 + i },
  metadata: Object.fromEntries(
    Array.from({ length: 40 }, (_, c) => [`m${c + 1}`, `${i}-${c}-é€"\\\n😀-${'x'.repeat(150)}`]),
  ),
}));

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('gzipBulkFileTo', () => {
  it('writes the same bytes the in-memory builder gives, and their hash, without leaving a temporary file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gzip-to-'));
    dirs.push(dir);
    const path = join(dir, 'part.json.gz');
    const seen: number[] = [];
    const written = await gzipBulkFileTo(path, donations, donations.length, (done) => seen.push(done));
    const onDisk = await readFile(path);
    // The JSON inside is the old builder's, byte for byte.
    const json = gunzipSync(onDisk);
    expect(json.equals(Buffer.from(JSON.stringify(buildBulkFile(donations)), 'utf8'))).toBe(true);
    // And the compressed file is the one gzipBulkFile keeps in memory.
    const inMemory = await gzipBulkFile(donations);
    expect(onDisk.equals(inMemory.gz)).toBe(true);
    expect(written).toEqual({
      sha256: inMemory.sha256,
      bytes: inMemory.gz.length,
      jsonChars: inMemory.jsonChars,
    });
    expect(sha256(onDisk)).toBe(written.sha256);
    expect(await sha256OfFile(path)).toEqual({ sha256: written.sha256, bytes: onDisk.length });
    expect(seen.at(-1)).toBe(donations.length);
    expect(await readdir(dir)).toEqual(['part.json.gz']);
  });

  it('takes the donations one at a time from any iterable, and writes an empty list as {"data":[]}', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gzip-to-'));
    dirs.push(dir);
    const lazy = (function* () {
      yield* donations.slice(0, 10);
    })();
    await gzipBulkFileTo(join(dir, 'a.gz'), lazy, 10);
    expect(JSON.parse(gunzipSync(await readFile(join(dir, 'a.gz'))).toString('utf8'))).toEqual(
      buildBulkFile(donations.slice(0, 10)),
    );
    await gzipBulkFileTo(join(dir, 'b.gz'), [], 0);
    expect(gunzipSync(await readFile(join(dir, 'b.gz'))).toString('utf8')).toBe('{"data":[]}');
  });

  it('leaves nothing behind when the donations cannot be written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gzip-to-'));
    dirs.push(dir);
    const failing = (function* () {
      yield donations[0] as DonationAttributes;
      throw new Error('read failed');
    })();
    await expect(gzipBulkFileTo(join(dir, 'c.gz'), failing, 2)).rejects.toThrow('read failed');
    expect(await readdir(dir)).toEqual([]);
  });
});
