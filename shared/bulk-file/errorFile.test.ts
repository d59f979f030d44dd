import { describe, expect, it } from 'vitest';
import type { DonationAttributes } from '../donation';
import { parseErrorFile } from './errorFile';
import { matchDonations } from './matchDonations';

const gift = (recipientId: string, amount: number, ref?: string): DonationAttributes => ({
  destination: { recipientId },
  funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount, source: 'COMPANY' },
  ...(ref ? { metadata: { ddRef: ref } } : {}),
});
const missingRecipient = {
  status: '422',
  code: 'REQUIRED',
  title: 'Missing required attribute',
  detail: 'destination.recipientId is required',
  source: { pointer: '/attributes/destination/recipientId' },
  meta: null,
};

describe('parseErrorFile, form (a): donation-errors.gz', () => {
  it('reads invalid donations with their errors, only the invalid ones present', () => {
    const text = JSON.stringify({
      data: [
        {
          type: 'donations',
          attributes: { destination: {}, funds: gift('x', 5).funds },
          errors: [missingRecipient],
        },
        {
          type: 'donations',
          attributes: gift('840-2', 7),
          errors: [
            {
              status: 422,
              code: 'INVALID',
              title: 'Bad amount',
              detail: '',
              source: { pointer: '/data/4/attributes/funds/amount' },
            },
          ],
        },
      ],
    });
    const parsed = parseErrorFile(text, { fileName: 'donation-errors.gz' });
    expect(parsed.form).toBe('donations');
    if (parsed.form !== 'donations') return;
    expect(parsed.validCount).toBe(0);
    expect(
      parsed.donations.map((d) => [
        d.position,
        d.pointerIndex,
        d.errors.map((e) => [e.field, e.status, e.code]),
      ]),
    ).toEqual([
      [0, undefined, [['destination.recipientId', '422', 'REQUIRED']]],
      [1, 4, [['funds.amount', '422', 'INVALID']]],
    ]);
    expect(parsed.donations[0]?.errors[0]).toEqual({
      field: 'destination.recipientId',
      status: '422',
      code: 'REQUIRED',
      title: 'Missing required attribute',
      detail: 'destination.recipientId is required',
      pointer: '/attributes/destination/recipientId',
    });
  });

  it('counts valid donations when the whole file comes back, and accepts errors nested in attributes', () => {
    const parsed = parseErrorFile({
      data: [
        { type: 'donations', attributes: gift('840-1', 5) },
        {
          type: 'donations',
          attributes: {
            ...gift('840-2', 0),
            errors: [{ title: 'Amount', source: { pointer: '/data/attributes/funds/amount' } }],
          },
        },
      ],
    });
    expect(parsed.form).toBe('donations');
    if (parsed.form !== 'donations') return;
    expect(parsed.validCount).toBe(1);
    expect(parsed.donations[0]?.attributes).toEqual(gift('840-2', 0));
    expect(parsed.donations[0]?.errors[0]?.field).toBe('funds.amount');
  });

  it('accepts a top-level array of invalid donations and a single error object', () => {
    const parsed = parseErrorFile([{ attributes: gift('840-1', 5), errors: missingRecipient }]);
    expect(parsed.form === 'donations' && parsed.donations[0]?.errors.length).toBe(1);
  });

  it('keeps going on malformed errors', () => {
    const parsed = parseErrorFile({
      data: [{ attributes: gift('840-1', 5), errors: ['boom', 42, { source: { pointer: 7 } }] }],
    });
    expect(
      parsed.form === 'donations' && parsed.donations[0]?.errors.map((e) => [e.field, e.detail]),
    ).toEqual([
      ['', 'boom'],
      ['', '42'],
      ['', '{"source":{"pointer":7}}'],
    ]);
  });
});

describe('parseErrorFile, form (b): donations.gz (original file returned)', () => {
  const intentError = {
    code: 'INVALID_BULK_DONATIONS',
    title: 'Invalid file',
    detail: 'Unexpected end of JSON',
    links: { href: 'https://x/donations.gz' },
  };

  it('reports where invalid JSON stops', () => {
    const parsed = parseErrorFile('{"data": [\n  {"type": "donations",\n  }', {
      fileName: 'donations.gz',
      intentErrors: intentError,
    });
    expect(parsed).toMatchObject({ form: 'file', json: false, donations: [] });
    if (parsed.form !== 'file') return;
    expect(parsed.fileErrors).toEqual([
      { field: '', code: 'INVALID_BULK_DONATIONS', title: 'Invalid file', detail: 'Unexpected end of JSON' },
    ]);
    expect(parsed.syntax?.message).toBeTruthy();
  });

  it('reads a returned file that is JSON but badly shaped', () => {
    const parsed = parseErrorFile(
      JSON.stringify({ data: [{ type: 'donations', attributes: gift('840-1', 5) }], extra: true }),
      {
        fileName: 'donations.gz',
        intentErrors: intentError,
      },
    );
    expect(parsed).toMatchObject({ form: 'file', json: true });
    expect(parsed.donations).toHaveLength(1);
  });

  it('decides by the intent when the name says nothing', () => {
    expect(parseErrorFile('{"data": []}', { intentErrors: intentError }).form).toBe('file');
    expect(
      parseErrorFile('{"data": []}', { fileName: 'donation-errors.gz', intentErrors: [intentError] }).form,
    ).toBe('donations');
  });

  it('accepts a byte-order mark', () => {
    expect(parseErrorFile('\ufeff{"data": []}', {}).form).toBe('file');
  });
});

describe('matchDonations', () => {
  it('matches by the reference pair first, whatever the content', () => {
    const uploaded = [gift('840-1', 5, 'w:2'), gift('840-1', 5, 'w:3')];
    const found = [{ attributes: gift('840-1', 5, 'w:3') }];
    expect(matchDonations(found, uploaded, { referenceKey: 'ddRef' })).toEqual([
      { position: 0, uploadIndex: 1, method: 'reference', certain: true },
    ]);
  });

  it('falls back to content and pairs duplicates in order, deterministically', () => {
    const uploaded = [gift('840-1', 5), gift('840-2', 9), gift('840-1', 5), gift('840-1', 5)];
    const found = [
      { attributes: gift('840-1', 5) },
      { attributes: gift('840-1', 5) },
      { attributes: gift('840-3', 1) },
    ];
    expect(matchDonations(found, uploaded).map((m) => [m.uploadIndex, m.method])).toEqual([
      [0, 'fingerprint'],
      [2, 'fingerprint'],
      [undefined, 'none'],
    ]);
  });

  it('ignores key order, the reference key, response-only fields and a foundation the service chose', () => {
    const uploaded = [gift('840-1', 5, 'w:2')];
    const returned = {
      metadata: {},
      funds: {
        amount: 5,
        currencyCode: 'USD',
        source: 'COMPANY',
        paymentType: 'DONATION_REPORT',
        receiptId: 'r',
      },
      destination: { foundationId: 'F-9', recipientId: '840-1' },
      state: { processingStatus: 'ACCEPTED' },
      bulkId: 'b1',
    };
    expect(
      matchDonations([{ attributes: returned }], uploaded, { referenceKey: 'ddRef' })[0]?.uploadIndex,
    ).toBe(0);
  });

  it('does not let a content match take a row that a reference claims', () => {
    const uploaded = [gift('840-1', 5, 'w:2'), gift('840-1', 5, 'w:3')];
    const found = [{ attributes: gift('840-1', 5) }, { attributes: gift('840-1', 5, 'w:2') }];
    expect(
      matchDonations(found, uploaded, { referenceKey: 'ddRef' }).map((m) => [m.uploadIndex, m.method]),
    ).toEqual([
      [1, 'fingerprint'],
      [0, 'reference'],
    ]);
  });

  it('uses an absolute pointer index only as an uncertain last resort', () => {
    const uploaded = [gift('840-1', 5), gift('840-2', 6)];
    const found = [{ attributes: { destination: {}, funds: {} }, pointerIndex: 1 }];
    expect(matchDonations(found, uploaded)).toEqual([
      { position: 0, uploadIndex: 1, method: 'position', certain: false },
    ]);
  });
});

// The upload repair flow ties an error file to the uploaded rows by parsing it and matching its
// donations; these pin that composition.
describe('an error file tied to the uploaded donations', () => {
  it('matches each returned donation to its upload by reference, leaving strangers unmatched', () => {
    const uploaded = [gift('840-1', 5, 'w:2'), gift('840-2', 0, 'w:3'), gift('bad id', 5, 'w:4')];
    const parsed = parseErrorFile({
      data: [
        {
          attributes: gift('bad id', 5, 'w:4'),
          errors: [{ title: 'Unknown cause', source: { pointer: '/attributes/destination/recipientId' } }],
        },
        {
          attributes: gift('840-2', 0, 'w:3'),
          errors: [{ title: 'Amount', source: { pointer: '/attributes/funds/amount' } }],
        },
        { attributes: gift('840-9', 1, 'w:99'), errors: [{ title: 'Who?' }] },
      ],
    });
    expect(parsed.form).toBe('donations');
    if (parsed.form !== 'donations') return;
    const matches = matchDonations(parsed.donations, uploaded, { referenceKey: 'ddRef' });
    expect(
      parsed.donations.map((d, i) => [
        matches[i]?.uploadIndex,
        matches[i]?.method,
        d.errors.map((e) => e.field),
      ]),
    ).toEqual([
      [2, 'reference', ['destination.recipientId']],
      [1, 'reference', ['funds.amount']],
      [undefined, 'none', ['']],
    ]);
  });

  it('keeps file-form errors without a pointer at file level', () => {
    const parsed = parseErrorFile('not json', {
      intentErrors: { code: 'INVALID_BULK_DONATIONS', title: 'Invalid JSON' },
    });
    expect(parsed.fileErrors.map((e) => e.title)).toEqual(['Invalid JSON']);
  });
});
