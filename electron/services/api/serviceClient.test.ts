import { describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import type { ResolvedEnvironment } from './resolvedEnvironment';
import { ServiceClient } from './serviceClient';
import { TokenClient } from './tokenClient';

const INTENT = {
  data: {
    type: 'bulkDonationIntent',
    id: 'b-1',
    attributes: {
      status: 'PENDING',
      createdAt: '2026-11-22T05:00:00Z',
      expiresAt: '2026-11-22T06:00:00Z',
      url: 'http://upload.test/bucket',
      fields: { key: 'k', Policy: 'p' },
    },
  },
};

type Step = Response | 'drop';

/** A fetch that answers token requests itself and each service call with the next scripted step. */
function scripted(steps: Step[]) {
  const calls: Array<{ url: string; method: string; auth: string | null }> = [];
  let tokens = 0;
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = String(input);
    if (url.endsWith('/token')) {
      tokens++;
      return Response.json({ access_token: `secret-token-${tokens}`, expires_in: 3600 });
    }
    calls.push({ url, method: init?.method ?? 'GET', auth: new Headers(init?.headers).get('authorization') });
    const step = steps.shift();
    if (!step || step === 'drop') throw new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } });
    return step;
  };
  const tokenClient = new TokenClient(
    { tokenUrl: 'http://api.test/token', clientId: 'id', clientSecret: 'shh' },
    fetchImpl,
  );
  const env: ResolvedEnvironment = {
    info: {
      id: 'custom',
      label: 'Custom',
      baseUrl: 'http://api.test',
      tokenUrl: 'http://api.test/token',
      programUrl: '',
      emulated: false,
    },
    tokens: tokenClient,
  };
  const sleeps: number[] = [];
  const client = new ServiceClient(async () => env, {
    fetchImpl,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    retry: { attempts: 4, baseMs: 100, maxMs: 1000 },
  });
  return { client, calls, sleeps, tokenCount: () => tokens, fetchImpl, env };
}

const status = (code: number, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ errors: [{ title: 'Nope', detail: 'injected' }] }), {
    status: code,
    headers,
  });

async function failure(promise: Promise<unknown>): Promise<DeskFailure> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof DeskFailure) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('service client', () => {
  it('sends the bearer token and retries once with a fresh token after a 401', async () => {
    const s = scripted([status(401), Response.json(INTENT)]);
    const intent = await s.client.getIntent('b-1');
    expect(intent.id).toBe('b-1');
    expect(s.calls.map((c) => c.auth)).toEqual(['Bearer secret-token-1', 'Bearer secret-token-2']);
  });

  it('retries a GET on 503 honouring Retry-After, on 429, and on a dropped connection', async () => {
    const s = scripted([status(503, { 'retry-after': '2' }), status(429), 'drop', Response.json(INTENT)]);
    await s.client.getIntent('b-1');
    expect(s.calls).toHaveLength(4);
    expect(s.sleeps[0]).toBe(2000);
    expect(s.sleeps.slice(1)).toEqual([100, 200]);
  });

  it('never repeats a bulk-intent POST after a 5xx or a dropped connection: it reports AMBIGUOUS', async () => {
    for (const step of [status(500), 'drop' as const]) {
      const s = scripted([step, Response.json(INTENT)]);
      const e = await failure(s.client.createIntent());
      expect(e.code).toBe('AMBIGUOUS');
      expect(s.calls).toHaveLength(1);
    }
  });

  it('repeats a POST refused with 429 (refused before any work)', async () => {
    const s = scripted([status(429, { 'retry-after': '0' }), Response.json(INTENT)]);
    expect((await s.client.createIntent()).id).toBe('b-1');
    expect(s.calls).toHaveLength(2);
  });

  it('turns an unexpected answer into a failure naming the call, never a crash, never with the token', async () => {
    const s = scripted([
      Response.json({ data: { type: 'somethingElse' } }),
      status(500),
      status(500),
      status(500),
      status(500),
    ]);
    const shape = await failure(s.client.getIntent('b-1'));
    expect(shape.code).toBe('BAD_RESPONSE');
    expect(shape.message).toContain('GET /donations/bulk-intents/{id}');
    const down = await failure(s.client.getIntent('b-1'));
    expect(down.code).toBe('SERVICE_UNAVAILABLE');
    for (const e of [shape, down])
      expect(`${e.message}${JSON.stringify(e.details)}`).not.toMatch(/secret|shh/);
  });

  it('calls any endpoint: JSON body, no body on a 204, the service errors kept with their pointers', async () => {
    const refused = new Response(
      JSON.stringify({
        errors: [
          {
            status: '422',
            code: 'INVALID',
            title: 'Invalid name',
            source: { pointer: '/data/0/attributes/name' },
          },
        ],
      }),
      { status: 422 },
    );
    const s = scripted([new Response(null, { status: 204 }), refused, status(409)]);
    const none = await s.client.request({
      name: 'removing a tag (DELETE /t)',
      method: 'DELETE',
      path: '/t',
      schema: null,
    });
    expect(none).toBeNull();
    const e = await failure(
      s.client.request({
        name: 'adding (POST /x)',
        method: 'POST',
        path: '/x',
        body: { a: 1 },
        schema: null,
      }),
    );
    expect(e.code).toBe('REJECTED');
    expect(e.message).toBe('The service refused adding (POST /x) (422): Invalid name');
    expect(e.details).toMatchObject({
      status: 422,
      errors: [{ code: 'INVALID', pointer: '/data/0/attributes/name' }],
    });
    const conflict = await failure(
      s.client.request({ name: 'updating (PATCH /y)', method: 'PATCH', path: '/y', body: {}, schema: null }),
    );
    expect(conflict.code).toBe('CONFLICT');
    expect(s.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'DELETE http://api.test/t',
      'POST http://api.test/x',
      'PATCH http://api.test/y',
    ]);
  });

  it('never repeats a PATCH or DELETE that may have reached the service', async () => {
    for (const method of ['PATCH', 'DELETE'] as const) {
      const s = scripted([status(502), new Response(null, { status: 204 })]);
      const e = await failure(
        s.client.request({ name: `x (${method} /z)`, method, path: '/z', schema: null }),
      );
      expect(e.code).toBe('AMBIGUOUS');
      expect(s.calls).toHaveLength(1);
    }
  });

  it('follows links.next until the range is no longer truncated', async () => {
    const donation = (id: string) => ({
      type: 'donations',
      id,
      attributes: {
        destination: { recipientId: '840-123456789' },
        funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
        state: { processingStatus: 'ACCEPTED' },
      },
    });
    const s = scripted([
      Response.json({
        meta: { count: 1, page: { rangeTruncated: true } },
        links: { next: 'http://api.test/donations?page[after]=x' },
        data: [donation('d1')],
      }),
      Response.json({
        meta: { count: 1, page: { rangeTruncated: false } },
        links: { next: null },
        data: [donation('d2')],
      }),
    ]);
    const all = await s.client.listBulkDonations('b-1');
    expect(all.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(s.calls[0]?.url).toContain('filter%5Bbulk%5D=b-1');
  });
});

describe('listing pages', () => {
  it('resolves the environment once per page of GET /donations (resolving reads the settings file)', async () => {
    const s = scripted([
      Response.json({
        meta: { count: 1, page: { rangeTruncated: true } },
        links: { next: '/donations?page%5Bafter%5D=x' },
        data: [],
      }),
      Response.json({ meta: { count: 1 }, data: [] }),
    ]);
    // The scripted service, through a resolver that counts.
    let resolved = 0;
    const client = new ServiceClient(
      async () => {
        resolved++;
        return s.env;
      },
      { fetchImpl: s.fetchImpl },
    );
    const first = await client.donationPage({ first: { 'page[size]': '250' } });
    expect(first.next).toBe('/donations?page%5Bafter%5D=x');
    const second = await client.donationPage({ next: first.next ?? '' });
    expect(second.next).toBeNull();
    expect(s.calls.map((c) => c.url)).toEqual([
      'http://api.test/donations?page%5Bsize%5D=250',
      'http://api.test/donations?page%5Bafter%5D=x',
    ]);
    expect(resolved).toBe(2);
  });
});
