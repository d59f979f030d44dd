import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A fetch that lets a test change what reaches the service, to make it reject what the app found
 * valid (its rules and the service's can disagree), or act at a chosen moment of a call.
 */
export interface Tamper {
  fetch: typeof fetch;
  /** Called with each upload's bulk file (parsed) before it is sent; return the file to send instead. */
  onUpload?: (file: { data: Array<{ attributes: Record<string, unknown> }> }) => unknown;
  /** Called before each request; may act on the emulator (advance its clock, revoke tokens). */
  before?: (url: string, method: string) => Promise<void>;
}

async function bodyBytes(body: unknown): Promise<Buffer> {
  if (body instanceof ReadableStream) {
    const chunks: Uint8Array[] = [];
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as Uint8Array);
    }
    return Buffer.concat(chunks);
  }
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.alloc(0);
}

/** Replaces the gzip member inside a multipart body (the file is the last part). */
function replaceFile(body: Buffer, contentType: string, transform: (gz: Buffer) => Buffer): Buffer {
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1] ?? '';
  const fileHeader = body.indexOf('name="file"');
  const start = body.indexOf('\r\n\r\n', fileHeader) + 4;
  const end = body.lastIndexOf(`\r\n--${boundary}--`);
  return Buffer.concat([body.subarray(0, start), transform(body.subarray(start, end)), body.subarray(end)]);
}

export function tamper(options: Omit<Tamper, 'fetch'> & { uploadHost: string }): Tamper {
  const t: Tamper = {
    ...options,
    fetch: async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? 'GET';
      await t.before?.(url, method);
      if (method === 'POST' && url.startsWith(options.uploadHost) && t.onUpload && init?.body) {
        const headers = new Headers(init.headers);
        const original = await bodyBytes(init.body);
        const changed = replaceFile(original, headers.get('content-type') ?? '', (gz) => {
          const file = JSON.parse(gunzipSync(gz).toString('utf8')) as {
            data: Array<{ attributes: Record<string, unknown> }>;
          };
          const next = t.onUpload?.(file) ?? file;
          return typeof next === 'string' ? gzipSync(next) : gzipSync(JSON.stringify(next));
        });
        headers.set('content-length', String(changed.length));
        return fetch(url, { ...init, headers, body: changed });
      }
      return fetch(input, init);
    },
  };
  return t;
}
