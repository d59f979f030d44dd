import busboy from 'busboy';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildMultipart } from './multipart';

function parse(
  body: Buffer,
  contentType: string,
): Promise<Array<{ name: string; value: string; file?: Buffer }>> {
  return new Promise((resolve, reject) => {
    const parts: Array<{ name: string; value: string; file?: Buffer }> = [];
    const parser = busboy({ headers: { 'content-type': contentType } });
    parser.on('field', (name, value) => parts.push({ name, value }));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => parts.push({ name, value: info.filename ?? '', file: Buffer.concat(chunks) }));
    });
    parser.on('close', () => resolve(parts));
    parser.on('error', reject);
    Readable.from([body]).pipe(parser);
  });
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

describe('multipart body', () => {
  const fields: Array<[string, string]> = [
    ['key', 'bulk/1/donations.json.gz'],
    ['Policy', 'eyJhIjoxfQ=='],
    ['X-Cloud-Algorithm', 'CLOUD-HMAC-SHA256'],
    ['X-Cloud-Signature', 'abc'],
  ];
  const data = Buffer.from(Array.from({ length: 700_000 }, (_, i) => i % 251));

  it('keeps the fields in the given order under their own names, with the file last', async () => {
    const body = buildMultipart(fields, {
      field: 'file',
      fileName: 'donations.json.gz',
      contentType: 'application/gzip',
      data,
    });
    const parts = await parse(body.bytes(), body.contentType);
    expect(parts.map((p) => p.name)).toEqual([
      'key',
      'Policy',
      'X-Cloud-Algorithm',
      'X-Cloud-Signature',
      'file',
    ]);
    expect(parts.slice(0, 4).map((p) => p.value)).toEqual(fields.map((f) => f[1]));
    expect(parts[4]?.file?.equals(data)).toBe(true);
  });

  it('streams exactly the bytes it announces, reporting progress up to the total', async () => {
    const body = buildMultipart(fields, {
      field: 'file',
      fileName: 'd.gz',
      contentType: 'application/gzip',
      data,
    });
    const seen: number[] = [];
    const streamed = await drain(body.stream((sent, total) => seen.push(sent / total), 64 * 1024));
    expect(streamed.length).toBe(body.length);
    expect(streamed.equals(body.bytes())).toBe(true);
    expect(seen.at(-1)).toBe(1);
    expect(seen.length).toBeGreaterThan(10);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('sends a file read from disk as it goes: the same body, its length known beforehand', async () => {
    const pieces = (): AsyncIterable<Uint8Array> =>
      (async function* () {
        for (let at = 0; at < data.length; at += 100_000) yield data.subarray(at, at + 100_000);
      })();
    const fromDisk = buildMultipart(fields, {
      field: 'file',
      fileName: 'd.gz',
      contentType: 'application/gzip',
      data: { size: data.length, read: pieces },
    });
    const streamed = await drain(fromDisk.stream(undefined, 64 * 1024));
    expect(streamed.length).toBe(fromDisk.length);
    const parts = await parse(streamed, fromDisk.contentType);
    expect(parts.map((p) => p.name)).toEqual([...fields.map((f) => f[0]), 'file']);
    expect(parts[4]?.file?.equals(data)).toBe(true);
    // Read anew for each try.
    expect((await drain(fromDisk.stream())).equals(streamed)).toBe(true);
  });

  it('fails the body before its end when the file is not the size announced', async () => {
    for (const size of [data.length + 1, data.length - 1]) {
      const body = buildMultipart(fields, {
        field: 'file',
        fileName: 'd.gz',
        contentType: 'application/gzip',
        data: {
          size,
          read: () =>
            (async function* () {
              yield data;
            })(),
        },
      });
      await expect(drain(body.stream())).rejects.toThrow(/while it was being sent/);
    }
  });
});
