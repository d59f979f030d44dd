import { describe, expect, it } from 'vitest';
import { donationListResponseSchema } from '../../../shared/bulk-file/serviceShapes';
import { donationAsIs, parseDonationList } from './donationListCheck';

/** A donation as the emulator answers it (keys in its order, which is the shapes' order). */
const donation = (i: number, over: Record<string, unknown> = {}) => ({
  type: 'donations',
  id: `d-${i}`,
  attributes: {
    destination: { recipientId: `r-${i}` },
    funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 500 + i, source: 'COMPANY' },
    donor: { receipted: true, fullName: `Employee ${i}`, email: `e${i}@example.org` },
    metadata: { ddRef: `ws:${i}`, employee: `E${i}` },
    payable: { paymentType: 'EFT' },
    state: { processingStatus: 'CLEARED', statusLastUpdated: '2026-11-01T00:00:00.000Z' },
    bulkId: 'b-1',
    ...over,
  },
});

const page = (data: unknown[], meta: unknown = { count: data.length, page: { rangeTruncated: false } }) => ({
  meta,
  links: { previous: null, next: '/donations?page[after]=x' },
  data,
});

/** What zod gives, and what the check gives, from two copies of the same JSON. */
function both(json: unknown) {
  const text = JSON.stringify(json);
  return {
    zod: donationListResponseSchema.safeParse(JSON.parse(text)),
    fast: parseDonationList(JSON.parse(text)),
  };
}

function expectSame(json: unknown): void {
  const { zod, fast } = both(json);
  expect(fast.success).toBe(zod.success);
  if (zod.success && fast.success) {
    // The same values in the same key order: what is stored is the JSON of each donation.
    expect(JSON.stringify(fast.data)).toBe(JSON.stringify(zod.data));
    expect(fast.data).toEqual(zod.data);
  } else if (!zod.success && !fast.success) {
    expect(fast.error.issues).toEqual(zod.error.issues);
  }
}

describe('a page of donations checked in place', () => {
  it('gives the parsed donations themselves, unchanged, when zod would give them back the same', () => {
    const json = page([donation(0), donation(1)]);
    const result = parseDonationList(json);
    expect(result.success && result.data.data).toBe(json.data);
    expect(result.success && result.data.data[1]).toBe(json.data[1]);
    expectSame(json);
    // The page's own keys in any order (the emulator sends data first): in zod's order after.
    const { meta, links, data } = json;
    expectSame({ data, extra: 1, links, meta });
    const again = parseDonationList({ data, links, meta });
    expect(again.success && again.data.data[0]).toBe(data[0]);
  });

  it('answers as zod for every kind of donation a service may send', () => {
    const declined = donation(2, {
      state: {
        processingStatus: 'DECLINED',
        statusLastUpdated: '2026-11-01T00:00:00.000Z',
        // A numeric status: zod makes it text; this donation goes through zod.
        errors: [{ status: 422, code: 'CHARITY_REVOKED', title: 'Revoked', detail: null }],
      },
    });
    const cases: unknown[] = [
      page([donation(0, { donor: null, metadata: null, payable: null, bulkId: null })]),
      page([donation(0, { donor: undefined, metadata: undefined, payable: undefined, bulkId: undefined })]),
      page([donation(0, { donor: { address: { line1: 'x', city: null } } })]),
      page([donation(0, { extra: { nested: [1, 2] } }), donation(1)]),
      page([declined, donation(3)]),
      page([donation(4, { state: { processingStatus: 'PAID', errors: [] } })]),
      // Keys in another order than the shapes': zod writes them in its order.
      page([{ id: 'd-5', type: 'donations', attributes: donation(5).attributes }]),
      page([donation(6, { funds: { currencyCode: 'EUR', paymentType: 'X', amount: 1 } })]),
      page([donation(7, { unknownFirst: 1, destination: { recipientId: 'r' } })]),
      page([]),
      { meta: { count: 0 }, data: [] },
      { data: [], meta: { count: 0 } },
      page([donation(8)], { count: 1, page: { rangeTruncated: true }, extra: 'x' }),
    ];
    for (const json of cases) expectSame(json);
  });

  it('answers as zod, its message included, for what is not of the expected shape', () => {
    const cases: unknown[] = [
      page([donation(0, { funds: { paymentType: 'X', currencyCode: 'USD', amount: 1.5 } })]),
      page([donation(0), donation(1, { state: { processingStatus: 'LOST' } })]),
      page([donation(0, { payable: { paymentType: 'CASH' } })]),
      page([donation(0, { metadata: { a: 1 } })]),
      page([{ ...donation(0), type: 'bulk' }]),
      page([donation(0)], { count: -1 }),
      page([donation(0)], null),
      { meta: { count: 1 }, links: null, data: [] },
      { meta: { count: 1 }, data: 'none' },
      null,
      [],
      'text',
    ];
    for (const json of cases) {
      const { zod, fast } = both(json);
      expect(zod.success).toBe(false);
      expectSame(json);
      expect(fast.success).toBe(false);
    }
  });

  it('takes the quick way only for a donation zod would give back as it is', () => {
    expect(donationAsIs(donation(0))).toBe(true);
    expect(donationAsIs({ id: 'd', type: 'donations', attributes: donation(0).attributes })).toBe(false);
    expect(donationAsIs(JSON.parse('{"type":"donations","id":"d","attributes":{},"__proto__":{}}'))).toBe(
      false,
    );
  });
});
