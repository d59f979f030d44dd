import { describe, expect, it } from 'vitest';
import { checkSingleDonation } from './singleDonation';

const base = { recipientId: '123-456789012', amount: '25.50', currencyCode: 'USD' };

describe('checkSingleDonation', () => {
  it('builds the donation a row with the same cells would give', () => {
    const result = checkSingleDonation({
      fields: {
        ...base,
        'donor.fullName': 'Ada Lovelace',
        'donor.email': 'ada@example.org',
        'donor.receipted': 'yes',
        'donor.address.country': 'gb',
      },
      metadata: [{ key: 'employeeId', value: 'E-17' }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.donation).toEqual({
      destination: { recipientId: '123-456789012' },
      funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'USD', amount: 2550 },
      donor: {
        fullName: 'Ada Lovelace',
        email: 'ada@example.org',
        receipted: true,
        address: { country: 'GB' },
      },
      metadata: { employeeId: 'E-17' },
    });
  });

  it.each([
    [{ ...base, amount: '10.005' }, 'amount', 'AMOUNT_TOO_PRECISE'],
    [{ ...base, amount: '0' }, 'amount', 'AMOUNT_ZERO'],
    [{ ...base, amount: '' }, 'amount', 'REQUIRED'],
    [{ ...base, recipientId: '' }, 'recipientId', 'REQUIRED'],
    [{ ...base, currencyCode: ' ' }, 'currencyCode', 'REQUIRED'],
    [{ ...base, currencyCode: 'XYZ' }, 'currencyCode', undefined],
    [{ ...base, 'donor.email': 'ada@' }, 'donor.email', 'EMAIL_INVALID'],
    [{ ...base, 'donor.address.country': 'Narnia' }, 'donor.address.country', undefined],
  ] as const)('puts the error of %j on %s', (fields, target, code) => {
    const result = checkSingleDonation({ fields, metadata: [] });
    expect(result.ok).toBe(false);
    const issue = result.issues.find((i) => i.severity === 'error');
    expect(issue?.target).toBe(target);
    if (code) expect(issue?.code).toBe(code);
    expect(issue?.message.length).toBeGreaterThan(10);
  });

  it('names the metadata pair by its position: bad key, emoji value, repeated key, value without key', () => {
    const result = checkSingleDonation({
      fields: base,
      metadata: [
        { key: 'ok', value: 'fine' },
        { key: 'bad key!', value: 'x' },
        { key: 'note', value: 'thanks 😀' },
        { key: 'OK', value: 'again' },
        { key: '', value: 'lonely' },
        { key: '', value: '' },
      ],
    });
    expect(result.ok).toBe(false);
    const byIndex = result.issues.map((i) => [i.metadataIndex, i.code]);
    expect(byIndex).toEqual(
      expect.arrayContaining([
        [1, 'METADATA_KEY_INVALID'],
        [2, 'METADATA_VALUE_EMOJI'],
        [3, 'METADATA_KEY_REPEATED'],
        [4, 'METADATA_KEY_EMPTY'],
      ]),
    );
    expect(result.issues.some((i) => i.metadataIndex === 0 || i.metadataIndex === 5)).toBe(false);
  });

  it('reads amounts in the chosen number style', () => {
    const result = checkSingleDonation(
      { fields: { ...base, amount: '1.234,56', currencyCode: 'EUR' }, metadata: [] },
      { numberStyle: 'comma-decimal' },
    );
    expect(result.ok && result.donation.funds.amount).toBe(123456);
  });
});
