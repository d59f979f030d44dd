import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Harness,
  type Json,
  type Info,
  bulkFile,
  bulkStatus,
  createIntent,
  donation,
  gunzipJson,
  info,
  listAll,
  startHarness,
  upload,
} from './helpers';

let h: Harness;
let samples: Info;
beforeAll(async () => {
  h = await startHarness();
  samples = await info(h);
});
afterAll(async () => {
  await h.emu.close();
});
beforeEach(async () => {
  await h.control('reset', {});
});

function validDonations(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) =>
    donation(samples.causesInGoodStanding[i % 5]?.id ?? '', 100 + i, { metadata: { row: String(i + 1) } }),
  );
}

async function statusAfter(id: string, seconds: number): Promise<Json> {
  await h.emu.advance(seconds);
  return (await bulkStatus(h, id)).body.data;
}

describe('POST /donations/bulk-intents', () => {
  it('answers PENDING with expiresAt, an upload url on the upload host and signed policy fields', async () => {
    const res = await h.api('POST', '/donations/bulk-intents');
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.type).toBe('bulkDonationIntent');
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.attributes.status).toBe('PENDING');
    expect(Date.parse(data.attributes.expiresAt)).toBeGreaterThan(Date.parse(data.attributes.createdAt));
    expect(data.attributes.url.startsWith(h.emu.uploadBaseUrl)).toBe(true);
    expect(Object.keys(data.attributes.fields).sort()).toEqual(
      [
        'Policy',
        'X-Cloud-Algorithm',
        'X-Cloud-Credential',
        'X-Cloud-Date',
        'X-Cloud-Security-Token',
        'X-Cloud-Signature',
        'bucket',
        'key',
      ].sort(),
    );
    const policy = JSON.parse(Buffer.from(data.attributes.fields.Policy, 'base64').toString()) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.expiration).toBe(data.attributes.expiresAt);
    expect(policy.conditions).toContainEqual(['content-length-range', 1, expect.any(Number)]);
    expect(policy.conditions).toContainEqual({ key: data.attributes.fields.key });
    expect(data.links.related.href).toBe(`${h.emu.apiBaseUrl}/donations?filter[bulk]=${data.id}`);
    const body = await h.api('POST', '/donations/bulk-intents', { data: { type: 'bulkDonationIntent' } });
    expect(body.status).toBe(201);
    expect((await h.api('POST', '/donations/bulk-intents', { data: { type: 'donations' } })).status).toBe(
      400,
    );
  });

  it('answers 404 for an unknown intent', async () => {
    expect((await bulkStatus(h, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('upload host', () => {
  it('takes a valid upload (204) and the intent becomes UPLOADED; a second upload is refused', async () => {
    const intent = await createIntent(h);
    const file = bulkFile(validDonations(3));
    const res = await upload(intent, file);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const data = (await bulkStatus(h, intent.id)).body.data;
    expect(data.attributes.status).toBe('UPLOADED');
    expect(data.attributes.updatedAt).toBeDefined();
    expect((await upload(intent, file)).status).toBe(403);
  });

  it('refuses a file that is not the last field (400)', async () => {
    const intent = await createIntent(h);
    const res = await upload(intent, bulkFile(validDonations(1)), { fileFirst: true });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/last field/);
    expect((await bulkStatus(h, intent.id)).body.data.attributes.status).toBe('PENDING');
  });

  it('refuses a missing field (400), a bad signature (403) and a tampered field (403)', async () => {
    const intent = await createIntent(h);
    const file = bulkFile(validDonations(1));
    expect((await upload(intent, file, { omit: ['X-Cloud-Date'] })).status).toBe(400);
    const sig = intent.fields['X-Cloud-Signature'] ?? '';
    const badSig = await upload(intent, file, {
      fields: { 'X-Cloud-Signature': `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}` },
    });
    expect(badSig.status).toBe(403);
    expect(badSig.text).toMatch(/SignatureDoesNotMatch/);
    expect(
      (await upload(intent, file, { fields: { key: 'bulk-donations/other/donations.json.gz' } })).status,
    ).toBe(403);
    expect((await upload(intent, file, { fields: { 'X-Cloud-Security-Token': 'forged' } })).status).toBe(403);
    const otherPolicy = Buffer.from(
      JSON.stringify({ expiration: '2999-01-01T00:00:00.000Z', conditions: [] }),
    ).toString('base64');
    expect((await upload(intent, file, { fields: { Policy: otherPolicy } })).status).toBe(403);
    expect((await bulkStatus(h, intent.id)).body.data.attributes.status).toBe('PENDING');
    expect((await upload(intent, file)).status).toBe(204);
  });

  it('refuses an expired upload address (403)', async () => {
    const intent = await createIntent(h);
    await h.emu.advance((Date.parse(intent.expiresAt) - h.emu.now().getTime()) / 1000 + 1);
    const res = await upload(intent, bulkFile(validDonations(1)));
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/expired/i);
  });

  it('refuses a file over the policy size range (400)', async () => {
    await h.control('faults', { maxUploadBytes: 200 });
    const intent = await createIntent(h);
    const big = bulkFile(validDonations(50));
    expect(big.length).toBeGreaterThan(200);
    const res = await upload(intent, big);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/EntityTooLarge/);
    expect((await upload(intent, Buffer.alloc(0))).status).toBe(400);
  });

  it('refuses every upload while the expire-upload-addresses fault is on', async () => {
    const intent = await createIntent(h);
    await h.control('faults', { expireUploadUrls: true });
    expect((await upload(intent, bulkFile(validDonations(1)))).status).toBe(403);
    await h.control('faults', { expireUploadUrls: false });
    expect((await upload(intent, bulkFile(validDonations(1)))).status).toBe(204);
  });

  it('refuses a non-multipart body', async () => {
    const intent = await createIntent(h);
    const res = await fetch(intent.url, {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(400);
  });
});

describe('bulk processing on the virtual clock', () => {
  it('goes UPLOADED → VALIDATED → PROCESSING → PROCESSED and creates donations with bulkId', async () => {
    const intent = await createIntent(h);
    expect((await upload(intent, bulkFile(validDonations(7)))).status).toBe(204);
    expect((await statusAfter(intent.id, 59)).attributes.status).toBe('UPLOADED');
    const seen = ['UPLOADED'];
    let last: Json;
    for (let i = 0; i < 60; i++) {
      last = await statusAfter(intent.id, 10);
      if (seen[seen.length - 1] !== last.attributes.status) seen.push(last.attributes.status);
      if (last.attributes.status === 'PROCESSED') break;
    }
    expect(seen).toEqual(['UPLOADED', 'VALIDATED', 'PROCESSING', 'PROCESSED']);
    expect(last.links.related).toEqual({
      href: `${h.emu.apiBaseUrl}/donations?filter[bulk]=${intent.id}`,
      meta: { uploaded: 7, accepted: 7 },
    });
    expect(last.attributes.errors).toBeUndefined();
    const list = await h.api('GET', `/donations?filter[bulk]=${intent.id}`);
    expect(list.body.meta.count).toBe(7);
    for (const d of list.body.data) {
      expect(d.attributes.bulkId).toBe(intent.id);
      expect(d.attributes.state.processingStatus).toBe('ACCEPTED');
      expect(d.attributes.funds.source).toBe('COMPANY');
    }
    expect(list.body.data.map((d: Json) => d.attributes.metadata.row)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    await h.emu.advance(12 * 3600);
    const cleared = await h.api('GET', `/donations?filter[bulk]=${intent.id}&filter[status]=CLEARED`);
    expect(cleared.body.meta.count).toBeGreaterThan(0);
  });

  it('an unparseable file ends in ERROR with a single error object whose link returns the original as donations.gz', async () => {
    const intent = await createIntent(h);
    const original = gzipSync('{"data": [ this is not json');
    expect((await upload(intent, original)).status).toBe(204);
    const data = await statusAfter(intent.id, 3600);
    expect(data.attributes.status).toBe('ERROR');
    const error = data.attributes.errors;
    expect(Array.isArray(error)).toBe(false);
    expect(error).toMatchObject({
      code: 'INVALID_BULK_DONATIONS',
      title: expect.any(String),
      detail: expect.stringMatching(/JSON/),
    });
    expect(error.links.href).toMatch(/\/donations\.gz\?/);
    const file = await fetch(error.links.href);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/donations\.gz/);
    expect(Buffer.from(await file.arrayBuffer()).equals(original)).toBe(true);
  });

  it.each([
    ['not gzip', Buffer.from('{"data": []}')],
    ['extra top-level attribute', gzipSync(JSON.stringify({ data: [], meta: {} }))],
    ['data not an array', gzipSync(JSON.stringify({ data: {} }))],
    ['no donations', gzipSync(JSON.stringify({ data: [] }))],
  ])('a file with %s is a file-level ERROR', async (_name, file) => {
    const intent = await createIntent(h);
    expect((await upload(intent, file)).status).toBe(204);
    const data = await statusAfter(intent.id, 3600);
    expect(data.attributes.status).toBe('ERROR');
    expect(data.attributes.errors.code).toBe('INVALID_BULK_DONATIONS');
  });

  it('invalid donations end in ERROR with an error array, counts and donation-errors.gz listing only the invalid ones', async () => {
    const donations = validDonations(6) as Json[];
    delete donations[1].attributes.destination.recipientId;
    donations[4].attributes.funds.amount = 1.5;
    donations[4].attributes.metadata = { 'bad!': 'x' };
    const intent = await createIntent(h);
    expect((await upload(intent, bulkFile(donations))).status).toBe(204);
    const data = await statusAfter(intent.id, 3600);
    expect(data.attributes.status).toBe('ERROR');
    expect(Array.isArray(data.attributes.errors)).toBe(true);
    expect(data.attributes.errors[0]).toMatchObject({
      code: 'INVALID_BULK_DONATIONS',
      title: expect.any(String),
      detail: expect.any(String),
    });
    expect(data.links.related.meta).toEqual({ uploaded: 6, invalid: 2 });
    const href = data.attributes.errors[0].links.href as string;
    expect(href).toMatch(/\/donation-errors\.gz\?/);
    const res = await fetch(href);
    expect(res.status).toBe(200);
    const content = gunzipJson(await res.arrayBuffer()) as { data: Json[] };
    expect(Object.keys(content)).toEqual(['data']);
    expect(content.data).toHaveLength(2);
    expect(content.data[0].type).toBe('donations');
    expect(content.data[0].attributes.metadata).toEqual({ row: '2' });
    expect(content.data[0].errors).toEqual([
      expect.objectContaining({
        status: '400',
        title: expect.any(String),
        detail: expect.any(String),
        source: { pointer: '/data/1/attributes/destination/recipientId' },
        meta: { index: 1 },
      }),
    ]);
    expect(content.data[1].errors.map((e: Json) => e.source.pointer).sort()).toEqual(
      ['/data/4/attributes/funds/amount', '/data/4/attributes/metadata/bad!'].sort(),
    );
    expect((await h.api('GET', `/donations?filter[bulk]=${intent.id}`)).body.meta.count).toBe(0);
  });

  it('issues a new signed error-file link on every GET, valid for 600 virtual seconds', async () => {
    const intent = await createIntent(h);
    await upload(intent, gzipSync('nope'));
    const first = (await statusAfter(intent.id, 3600)).attributes.errors.links.href as string;
    const second = (await bulkStatus(h, intent.id)).body.data.attributes.errors.links.href as string;
    expect(second).not.toBe(first);
    expect((await fetch(first)).status).toBe(200);
    const tampered = first.replace(
      /signature=([0-9a-f])/,
      (_m, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`,
    );
    expect((await fetch(tampered)).status).toBe(403);
    const longer = first.replace(/expires=(\d+)/, (_m, n: string) => `expires=${Number(n) + 1000}`);
    expect((await fetch(longer)).status).toBe(403);
    await h.emu.advance(599);
    expect((await fetch(first)).status).toBe(200);
    await h.emu.advance(2);
    const expired = await fetch(first);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/expired/);
    const fresh = (await bulkStatus(h, intent.id)).body.data.attributes.errors.links.href as string;
    expect((await fetch(fresh)).status).toBe(200);
  });

  it('partial extraction failure: PROCESSING ends in ERROR after some donations were created', async () => {
    await h.control('faults', { partialExtractionFailure: { afterDonations: 3 } });
    const intent = await createIntent(h);
    await upload(intent, bulkFile(validDonations(8)));
    const data = await statusAfter(intent.id, 3600);
    expect(data.attributes.status).toBe('ERROR');
    expect(data.attributes.errors[0].code).toBe('BULK_EXTRACTION_FAILED');
    expect(data.links.related.meta).toEqual({ uploaded: 8, accepted: 3, failed: 5 });
    const created = await listAll(h, `filter[bulk]=${intent.id}`);
    expect(created).toHaveLength(3);
    const file = gunzipJson(await (await fetch(data.attributes.errors[0].links.href)).arrayBuffer()) as {
      data: Json[];
    };
    expect(file.data.map((d) => d.attributes.metadata.row)).toEqual(['4', '5', '6', '7', '8']);
    expect(file.data[0].errors[0].code).toBe('EXTRACTION_FAILED');
  });
});
