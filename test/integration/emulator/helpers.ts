import { gunzipSync, gzipSync } from 'node:zlib';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../emulator/server';

export interface Harness {
  emu: RunningEmulator;
  token: string;
  api: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<ApiResponse>;
  control: (path: string, body?: unknown) => Promise<ApiResponse>;
}

/** Tests inspect arbitrary JSON; narrowing every access would drown the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Json;
}

async function toResponse(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

export async function getToken(emu: RunningEmulator): Promise<string> {
  const res = await fetch(emu.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: emu.clientId,
      client_secret: emu.clientSecret,
    }),
  });
  if (res.status !== 200) throw new Error(`token: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A frozen clock (timeScale 0): nothing moves unless the test advances it. */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emu = await startEmulator({
    port: 0,
    uploadPort: 0,
    timeScale: 0,
    seed: 42,
    quiet: true,
    ...options,
  });
  let issuedAt = emu.now().getTime();
  const harness: Harness = {
    emu,
    token: await getToken(emu),
    api: async (method, path, body, headers = {}) => {
      // Tests jump hours ahead; renew the token as a well-behaved client would before it expires.
      if (emu.now().getTime() - issuedAt > 3000_000) {
        harness.token = await getToken(emu);
        issuedAt = emu.now().getTime();
      }
      const res = await fetch(`${emu.apiBaseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${harness.token}`,
          ...(body !== undefined ? { 'content-type': 'application/vnd.api+json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return toResponse(res);
    },
    control: async (path, body) => {
      const res = await fetch(`${emu.apiBaseUrl}/_emulator/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body !== undefined
          ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
          : {}),
      });
      return toResponse(res);
    },
  };
  return harness;
}

export interface Info {
  causesInGoodStanding: Array<{ id: string; paymentType: string }>;
  causesNotInGoodStanding: string[];
  project: string;
  portfolios: string[];
  unknownCause: string;
}

export async function info(h: Harness): Promise<Info> {
  return (await h.control('info')).body.samples as Info;
}

export function donation(
  recipientId: string,
  amount = 1000,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'donations',
    attributes: {
      destination: { recipientId },
      funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount, source: 'COMPANY' },
      ...extra,
    },
  };
}

export function bulkFile(donations: unknown[]): Buffer {
  return gzipSync(JSON.stringify({ data: donations }));
}

export function gunzipJson(data: ArrayBuffer | Buffer): unknown {
  return JSON.parse(gunzipSync(Buffer.from(data as ArrayBuffer)).toString('utf8'));
}

export interface Intent {
  id: string;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

export async function createIntent(h: Harness): Promise<Intent> {
  const res = await h.api('POST', '/donations/bulk-intents');
  if (res.status !== 201) throw new Error(`intent: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data;
  return {
    id: data.id,
    url: data.attributes.url,
    fields: data.attributes.fields,
    expiresAt: data.attributes.expiresAt,
  };
}

/** A real multipart upload: the fields in order, then the file last (unless a test says otherwise). */
export async function upload(
  intent: Intent,
  file: Buffer,
  options: { fields?: Record<string, string>; fileFirst?: boolean; omit?: string[] } = {},
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  const blob = new Blob([new Uint8Array(file)], { type: 'application/gzip' });
  if (options.fileFirst) form.append('file', blob, 'donations.json.gz');
  for (const [name, value] of Object.entries({ ...intent.fields, ...options.fields })) {
    if (!options.omit?.includes(name)) form.append(name, value);
  }
  if (!options.fileFirst) form.append('file', blob, 'donations.json.gz');
  const res = await fetch(intent.url, { method: 'POST', body: form });
  return { status: res.status, text: await res.text() };
}

export async function bulkStatus(h: Harness, id: string): Promise<ApiResponse> {
  return h.api('GET', `/donations/bulk-intents/${id}`);
}

/** Lists every donation by following links.next until the range is no longer truncated. */
export async function listAll(h: Harness, query: string): Promise<Array<{ id: string }>> {
  const all: Array<{ id: string }> = [];
  let path: string | undefined = `/donations?${query}`;
  for (let guard = 0; path && guard < 10_000; guard++) {
    const res = await h.api('GET', path);
    if (res.status !== 200) throw new Error(`list: ${res.status}`);
    all.push(...(res.body.data as Array<{ id: string }>));
    path = res.body.meta.page.rangeTruncated
      ? String(res.body.links.next).replace(h.emu.apiBaseUrl, '')
      : undefined;
  }
  return all;
}
