import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, type Json, type Info, donation, info, startHarness } from './helpers';

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

function good(index = 0): string {
  const cause = samples.causesInGoodStanding[index];
  if (!cause) throw new Error('no sample cause');
  return cause.id;
}

async function post(
  body: unknown,
): Promise<{ status: number; body: { data: { id: string; attributes: Json } } }> {
  return h.api('POST', '/donations', body);
}

async function stateOf(id: string): Promise<Json> {
  const res = await h.api('GET', `/donations/${id}`);
  expect(res.status).toBe(200);
  return res.body.data.attributes;
}

describe('POST /donations', () => {
  it('creates a donation: 201, ACCEPTED, UUID id, statusLastUpdated with milliseconds, source COMPANY', async () => {
    const res = await post({
      data: donation(good(), 2500, { metadata: { 'Cost centre_1': 'Payroll – Q3' } }),
    });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(data.attributes.state.processingStatus).toBe('ACCEPTED');
    expect(data.attributes.state.statusLastUpdated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(data.attributes.funds).toEqual({
      paymentType: 'DONATION_REPORT',
      currencyCode: 'USD',
      amount: 2500,
      source: 'COMPANY',
    });
    expect(data.attributes.metadata).toEqual({ 'Cost centre_1': 'Payroll – Q3' });
    expect(data.attributes.bulkId).toBeNull();
    expect((await h.api('GET', `/donations/${data.id}`)).body.data).toEqual(data);
  });

  it('accepts projects and portfolios as recipients, and a donor', async () => {
    const donor = {
      receipted: true,
      fullName: 'Ana Li',
      email: 'ana@example.com',
      address: { line1: '1 Main St', city: 'Denver', country: 'US' },
    };
    expect((await post({ data: donation(samples.project, 100, { donor }) })).status).toBe(201);
    expect((await post({ data: donation(samples.portfolios[0] ?? '', 100) })).status).toBe(201);
  });

  const base = (): Json => donation('840-123456789');
  const cases: Array<[string, (d: Json) => void, string, string]> = [
    [
      'missing recipientId',
      (d) => delete d.attributes.destination.recipientId,
      '/data/attributes/destination/recipientId',
      'REQUIRED',
    ],
    [
      'missing destination',
      (d) => delete d.attributes.destination,
      '/data/attributes/destination/recipientId',
      'REQUIRED',
    ],
    [
      'bad recipient shape',
      (d) => (d.attributes.destination.recipientId = '840-12/abc'),
      '/data/attributes/destination/recipientId',
      'INVALID_RECIPIENT_ID',
    ],
    [
      'lower-case project id',
      (d) => (d.attributes.destination.recipientId = '840-123456789/4x7k2m9qpl'),
      '/data/attributes/destination/recipientId',
      'INVALID_RECIPIENT_ID',
    ],
    ['missing funds', (d) => delete d.attributes.funds, '/data/attributes/funds', 'REQUIRED'],
    [
      'missing paymentType',
      (d) => delete d.attributes.funds.paymentType,
      '/data/attributes/funds/paymentType',
      'REQUIRED',
    ],
    [
      'other paymentType',
      (d) => (d.attributes.funds.paymentType = 'CARD'),
      '/data/attributes/funds/paymentType',
      'INVALID_PAYMENT_TYPE',
    ],
    [
      'lower-case currency',
      (d) => (d.attributes.funds.currencyCode = 'usd'),
      '/data/attributes/funds/currencyCode',
      'INVALID_CURRENCY',
    ],
    [
      'unknown currency',
      (d) => (d.attributes.funds.currencyCode = 'ABC'),
      '/data/attributes/funds/currencyCode',
      'INVALID_CURRENCY',
    ],
    [
      'missing currency',
      (d) => delete d.attributes.funds.currencyCode,
      '/data/attributes/funds/currencyCode',
      'REQUIRED',
    ],
    [
      'fractional amount',
      (d) => (d.attributes.funds.amount = 10.5),
      '/data/attributes/funds/amount',
      'INVALID_AMOUNT',
    ],
    [
      'zero amount',
      (d) => (d.attributes.funds.amount = 0),
      '/data/attributes/funds/amount',
      'INVALID_AMOUNT',
    ],
    [
      'negative amount',
      (d) => (d.attributes.funds.amount = -5),
      '/data/attributes/funds/amount',
      'INVALID_AMOUNT',
    ],
    [
      'string amount',
      (d) => (d.attributes.funds.amount = '100'),
      '/data/attributes/funds/amount',
      'INVALID_AMOUNT',
    ],
    ['missing amount', (d) => delete d.attributes.funds.amount, '/data/attributes/funds/amount', 'REQUIRED'],
    [
      'other source',
      (d) => (d.attributes.funds.source = 'EMPLOYEE'),
      '/data/attributes/funds/source',
      'INVALID_SOURCE',
    ],
    ['wrong type', (d) => (d.type = 'donation'), '/data/type', 'INVALID_TYPE'],
    ['read-only state', (d) => (d.attributes.state = {}), '/data/attributes/state', 'UNKNOWN_ATTRIBUTE'],
    [
      'donor country',
      (d) => (d.attributes.donor = { address: { country: 'USA' } }),
      '/data/attributes/donor/address/country',
      'INVALID_COUNTRY',
    ],
    [
      'donor receipted',
      (d) => (d.attributes.donor = { receipted: 'yes' }),
      '/data/attributes/donor/receipted',
      'INVALID_TYPE',
    ],
    [
      'metadata key chars',
      (d) => (d.attributes.metadata = { 'a.b': 'x' }),
      '/data/attributes/metadata/a.b',
      'METADATA_INVALID_KEY',
    ],
    [
      'metadata key too long',
      (d) => (d.attributes.metadata = { ['k'.repeat(65)]: 'x' }),
      `/data/attributes/metadata/${'k'.repeat(65)}`,
      'METADATA_INVALID_KEY',
    ],
    [
      'metadata empty key',
      (d) => (d.attributes.metadata = { '': 'x' }),
      '/data/attributes/metadata/',
      'METADATA_INVALID_KEY',
    ],
    [
      'metadata value empty',
      (d) => (d.attributes.metadata = { a: '' }),
      '/data/attributes/metadata/a',
      'METADATA_INVALID_VALUE',
    ],
    [
      'metadata value too long',
      (d) => (d.attributes.metadata = { a: 'v'.repeat(191) }),
      '/data/attributes/metadata/a',
      'METADATA_INVALID_VALUE',
    ],
    [
      'metadata value emoji',
      (d) => (d.attributes.metadata = { a: 'ok 😀' }),
      '/data/attributes/metadata/a',
      'METADATA_INVALID_VALUE',
    ],
    [
      'metadata value number',
      (d) => (d.attributes.metadata = { a: 5 }),
      '/data/attributes/metadata/a',
      'METADATA_INVALID_VALUE',
    ],
    [
      'metadata 101 pairs',
      (d) =>
        (d.attributes.metadata = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']))),
      '/data/attributes/metadata',
      'METADATA_TOO_MANY_PAIRS',
    ],
    [
      'metadata with slash key',
      (d) => (d.attributes.metadata = { 'a/b': 'x' }),
      '/data/attributes/metadata/a~1b',
      'METADATA_INVALID_KEY',
    ],
  ];
  it.each(cases)('400 with a pointer for %s', async (_name, mutate, pointer, code) => {
    const d = base();
    mutate(d);
    const res = await post({ data: d });
    expect(res.status).toBe(400);
    const errors = (
      res.body as unknown as { errors: Array<{ status: string; code: string; source: { pointer: string } }> }
    ).errors;
    expect(errors).toContainEqual(expect.objectContaining({ status: '400', code, source: { pointer } }));
  });

  it('accepts the boundaries: 100 metadata pairs, 64-char keys, 190 BMP characters, empty metadata', async () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`key ${i}_-`.padEnd(64, 'x'), 'é'.repeat(190)]),
    );
    expect((await post({ data: donation(good(), 1, { metadata }) })).status).toBe(201);
    expect((await post({ data: donation(good(), 1, { metadata: {} }) })).status).toBe(201);
  });

  it('refuses a non-JSON body, a missing data member and an unsupported media type', async () => {
    const raw = await fetch(`${h.emu.apiBaseUrl}/donations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(raw.status).toBe(400);
    expect((await h.api('POST', '/donations', { nothing: true })).status).toBe(400);
    const text = await fetch(`${h.emu.apiBaseUrl}/donations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
  });

  it('answers 404 for an unknown donation', async () => {
    const res = await h.api('GET', '/donations/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.errors[0].status).toBe('404');
  });
});

describe('donation lifecycle on the virtual clock', () => {
  it('moves ACCEPTED → INITIATED → IN_PROGRESS → PAID → CLEARED, with receipt and payable', async () => {
    await h.control('faults', { paymentFailureRate: 0 });
    const cause = samples.causesInGoodStanding[0];
    const created = await post({
      data: donation(cause?.id ?? '', 500, { donor: { receipted: true, fullName: 'A B' } }),
    });
    const id = created.body.data.id;
    const seen: string[] = ['ACCEPTED'];
    let payable: string | undefined;
    let receipt: string | undefined;
    for (let minute = 0; minute < 12 * 60; minute++) {
      await h.emu.advance(60);
      const attrs = await stateOf(id);
      const status = attrs.state.processingStatus as string;
      if (seen[seen.length - 1] !== status) seen.push(status);
      if (attrs.payable) payable = attrs.payable.paymentType;
      if (attrs.funds.receiptId) receipt = attrs.funds.receiptId;
      if (status === 'CLEARED') break;
    }
    expect(seen).toEqual(['ACCEPTED', 'INITIATED', 'IN_PROGRESS', 'PAID', 'CLEARED']);
    expect(payable).toBe(cause?.paymentType);
    expect(receipt).toMatch(/^RCPT-/);
  });

  it('gives no receipt when the donor does not want one', async () => {
    const created = await post({ data: donation(good(), 500, { donor: { receipted: false } }) });
    await h.emu.advance(8 * 3600);
    const attrs = await stateOf(created.body.data.id);
    expect(attrs.state.processingStatus).toBe('CLEARED');
    expect(attrs.funds.receiptId).toBeUndefined();
  });

  it('sends a failed payment back to INITIATED and then retries it', async () => {
    await h.control('faults', { paymentFailureRate: 1 });
    const created = await post({ data: donation(good(), 500) });
    const seen: string[] = ['ACCEPTED'];
    for (let minute = 0; minute < 16 * 60; minute += 5) {
      await h.emu.advance(300);
      const status = (await stateOf(created.body.data.id)).state.processingStatus as string;
      if (seen[seen.length - 1] !== status) seen.push(status);
      if (status === 'CLEARED') break;
    }
    expect(seen).toEqual([
      'ACCEPTED',
      'INITIATED',
      'IN_PROGRESS',
      'PAID',
      'INITIATED',
      'IN_PROGRESS',
      'PAID',
      'CLEARED',
    ]);
  });

  it('declines unknown recipients, causes not in good standing and gifts over the program budget', async () => {
    await h.control('faults', { budgetMinorUnits: 10_000 });
    const unknown = await post({ data: donation(samples.unknownCause) });
    const unknownProject = await post({ data: donation(`${good()}/ZZZZZZZZZZ`) });
    const unknownPortfolio = await post({ data: donation('P-ZZZZZZZZ') });
    const standing = await post({ data: donation(samples.causesNotInGoodStanding[0] ?? '') });
    const withinBudget = await post({ data: donation(good(), 9_000) });
    const overBudget = await post({ data: donation(good(), 2_000) });
    const otherCurrency = await post({
      data: {
        ...donation(good(), 2_000),
        attributes: {
          destination: { recipientId: good() },
          funds: { paymentType: 'DONATION_REPORT', currencyCode: 'EUR', amount: 2000 },
        },
      },
    });
    for (const r of [
      unknown,
      unknownProject,
      unknownPortfolio,
      standing,
      withinBudget,
      overBudget,
      otherCurrency,
    ]) {
      expect(r.status).toBe(201);
      expect(r.body.data.attributes.state.processingStatus).toBe('ACCEPTED');
    }
    await h.emu.advance(6 * 60);
    const expectDecline = async (id: string, code: string, pointer: string): Promise<void> => {
      const state = (await stateOf(id)).state;
      expect(state.processingStatus).toBe('DECLINED');
      expect(state.errors).toEqual([
        expect.objectContaining({
          code,
          source: { pointer },
          status: expect.any(String),
          title: expect.any(String),
        }),
      ]);
    };
    await expectDecline(
      unknown.body.data.id,
      'RECIPIENT_NOT_FOUND',
      '/data/attributes/destination/recipientId',
    );
    await expectDecline(
      unknownProject.body.data.id,
      'RECIPIENT_NOT_FOUND',
      '/data/attributes/destination/recipientId',
    );
    await expectDecline(
      unknownPortfolio.body.data.id,
      'RECIPIENT_NOT_FOUND',
      '/data/attributes/destination/recipientId',
    );
    await expectDecline(
      standing.body.data.id,
      'CAUSE_NOT_IN_GOOD_STANDING',
      '/data/attributes/destination/recipientId',
    );
    await expectDecline(overBudget.body.data.id, 'PROGRAM_BUDGET_EXCEEDED', '/data/attributes/funds/amount');
    expect((await stateOf(withinBudget.body.data.id)).state.processingStatus).toBe('INITIATED');
    expect((await stateOf(otherCurrency.body.data.id)).state.processingStatus).toBe('INITIATED');
    await h.emu.advance(24 * 3600);
    expect((await stateOf(unknown.body.data.id)).state.processingStatus).toBe('DECLINED');
  });

  it('is deterministic: two emulators with the same seed give the same ids and timelines', async () => {
    const run = async (seed: number): Promise<string[]> => {
      const other = await startHarness({ seed });
      try {
        const cause = (await info(other)).causesInGoodStanding[1]?.id ?? '';
        const created = await other.api('POST', '/donations', { data: donation(cause, 700) });
        const createdAt = Date.parse(created.body.data.attributes.state.statusLastUpdated);
        const out = [created.body.data.id as string];
        for (let i = 0; i < 30; i++) {
          await other.emu.advance(600);
          const s = (await other.api('GET', `/donations/${created.body.data.id}`)).body.data.attributes.state;
          out.push(`${s.processingStatus}+${Date.parse(s.statusLastUpdated) - createdAt}`);
        }
        return out;
      } finally {
        await other.emu.close();
      }
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect((await run(8))[0]).not.toEqual(first[0]);
  });
});
