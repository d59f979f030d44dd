import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DonationAttributes } from '../../../shared/donation';
import { bulkFileSha256, environmentKeyOf, reviewFacts, totalsOverParts } from './teamUploads';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function gift(recipientId: string, amount: number, currencyCode = 'USD'): DonationAttributes {
  return { destination: { recipientId }, funds: { amount, currencyCode } } as DonationAttributes;
}

describe('the bulk file SHA-256 an approval binds to', () => {
  it('is the gzip file’s own hash for a one-part upload', () => {
    const part = sha('the one gzip file');
    expect(bulkFileSha256([part])).toBe(part);
    expect(bulkFileSha256([part.toUpperCase()])).toBe(part);
  });

  it('is the hash of the parts’ hashes joined by newlines, in part order, for several', () => {
    const a = sha('part 1');
    const b = sha('part 2');
    expect(bulkFileSha256([a, b])).toBe(sha(`${a}\n${b}`));
    // Another order is another file set: it must not approve the same thing.
    expect(bulkFileSha256([b, a])).not.toBe(bulkFileSha256([a, b]));
    expect(bulkFileSha256([a, b])).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses an upload with no part', () => {
    expect(() => bulkFileSha256([])).toThrow();
  });
});

describe('the facts an approver reviews', () => {
  it('names the month, the recipients receiving most per currency, rows already out and warnings', () => {
    const donations = [
      gift('840-1', 10_000),
      gift('840-1', 5_000),
      gift('840-2', 12_000),
      gift('840-1', 90_000, 'EUR'),
      gift('840-3', 100),
    ];
    const facts = reviewFacts(donations, {
      createdAt: '2026-11-25T10:00:00.000Z',
      alreadyOut: 2,
      warnings: ['Row 7 looks like a totals row and was skipped.'],
      leftOut: 1,
    });
    expect(facts.month).toBe('2026-11');
    expect(facts.alreadyOut).toBe(2);
    // Never added across currencies: 840-1 appears once in EUR and once in USD.
    expect(facts.largestRecipients).toEqual([
      { recipientId: '840-1', currencyCode: 'EUR', amount: 90_000, count: 1 },
      { recipientId: '840-1', currencyCode: 'USD', amount: 15_000, count: 2 },
      { recipientId: '840-2', currencyCode: 'USD', amount: 12_000, count: 1 },
      { recipientId: '840-3', currencyCode: 'USD', amount: 100, count: 1 },
    ]);
    expect(facts.warnings).toEqual([
      'Row 7 looks like a totals row and was skipped.',
      '1 row with errors was left out of this upload.',
      '2 rows were already sent before and go again on purpose.',
    ]);
  });

  it('lists at most ten recipients and no warning when there is nothing to say', () => {
    const donations = Array.from({ length: 25 }, (_, i) => gift(`840-${i}`, (i + 1) * 100));
    const facts = reviewFacts(donations, { createdAt: '2027-01-03T00:00:00.000Z', alreadyOut: 0 });
    expect(facts.largestRecipients).toHaveLength(10);
    expect(facts.largestRecipients[0]).toMatchObject({ recipientId: '840-24', amount: 2_500 });
    expect(facts.warnings).toEqual([]);
    expect(facts.month).toBe('2027-01');
  });
});

describe('where the shared guard keeps rows', () => {
  it('tells services apart by id and address, the Offline sandbox by id alone', () => {
    expect(environmentKeyOf({ id: 'custom', baseUrl: 'https://giving.example/api/', emulated: false })).toBe(
      'custom|https://giving.example/api',
    );
    expect(environmentKeyOf({ id: 'offline', baseUrl: 'http://127.0.0.1:5123', emulated: true })).toBe(
      'offline',
    );
  });

  it('sums totals over parts per currency', () => {
    expect(
      totalsOverParts([
        { totals: [{ currencyCode: 'USD', amount: 100, count: 1 }] },
        {
          totals: [
            { currencyCode: 'USD', amount: 50, count: 2 },
            { currencyCode: 'EUR', amount: 7, count: 1 },
          ],
        },
      ]),
    ).toEqual([
      { currencyCode: 'USD', amount: 150, count: 3 },
      { currencyCode: 'EUR', amount: 7, count: 1 },
    ]);
  });
});
