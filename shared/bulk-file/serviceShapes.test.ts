import { describe, expect, it } from 'vitest';
import {
  bulkIntentResponseSchema,
  donationListResponseSchema,
  donationResponseSchema,
} from './serviceShapes';

const donation = {
  type: 'donations',
  id: '6f1c2d3e-0000-4000-8000-000000000001',
  attributes: {
    destination: { recipientId: '840-123456789' },
    funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 2500, source: 'COMPANY' },
    state: { processingStatus: 'ACCEPTED', statusLastUpdated: '2026-11-22T05:00:00.000Z' },
    bulkId: 'b-1',
  },
};

describe('service response schemas', () => {
  it('parse a donation, keeping fields the spec does not list', () => {
    const parsed = donationResponseSchema.parse({
      data: { ...donation, attributes: { ...donation.attributes, newThing: 1 } },
    });
    expect(parsed.data.attributes.state.processingStatus).toBe('ACCEPTED');
  });

  it('parse a declined donation with its errors and a payable', () => {
    const declined = {
      ...donation.attributes,
      payable: { paymentType: 'EFT' },
      state: {
        processingStatus: 'DECLINED',
        statusLastUpdated: 'x',
        errors: [
          {
            status: '422',
            code: 'C',
            title: 'T',
            detail: '',
            source: { pointer: '/destination/recipientId' },
            meta: null,
          },
        ],
      },
    };
    expect(donationResponseSchema.safeParse({ data: { ...donation, attributes: declined } }).success).toBe(
      true,
    );
  });

  it('refuse an unknown processing status', () => {
    const bad = { ...donation, attributes: { ...donation.attributes, state: { processingStatus: 'LOST' } } };
    expect(donationResponseSchema.safeParse({ data: bad }).success).toBe(false);
  });

  it('parse a donation list page', () => {
    const page = {
      meta: { count: 1, page: { rangeTruncated: true } },
      links: { next: 'https://x?page[after]=c', previous: null },
      data: [donation],
    };
    expect(donationListResponseSchema.parse(page).meta.page?.rangeTruncated).toBe(true);
  });

  it('parse bulk intents: created, processed, and errors as array or object', () => {
    const created = {
      data: {
        type: 'bulkDonationIntent',
        id: 'i-1',
        attributes: {
          status: 'PENDING',
          createdAt: 'c',
          expiresAt: 'e',
          url: 'https://upload',
          fields: { bucket: 'b', key: 'k', Policy: 'p', 'X-Cloud-Signature': 's' },
        },
      },
    };
    expect(bulkIntentResponseSchema.parse(created).data.attributes.fields?.Policy).toBe('p');
    const error = { code: 'INVALID_BULK_DONATIONS', title: 't', detail: 'd', links: { href: 'https://dl' } };
    const withArray = {
      data: {
        type: 'bulkDonationIntent',
        id: 'i',
        attributes: { status: 'ERROR', createdAt: 'c', errors: [error] },
        links: { related: { href: 'h', meta: { uploaded: 3, invalid: 1 } } },
      },
    };
    const withObject = {
      data: {
        type: 'bulkDonationIntent',
        id: 'i',
        attributes: { status: 'ERROR', createdAt: 'c', errors: error },
      },
    };
    expect(bulkIntentResponseSchema.safeParse(withArray).success).toBe(true);
    expect(bulkIntentResponseSchema.safeParse(withObject).success).toBe(true);
    expect(
      bulkIntentResponseSchema.safeParse({
        data: { ...withObject.data, attributes: { status: 'DONE', createdAt: 'c' } },
      }).success,
    ).toBe(false);
  });
});
