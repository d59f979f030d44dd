import type { DonationAttributes } from './donationShapes';

/** A valid donation to vary in tests (not exported from index). */
export function validDonation(overrides: Partial<DonationAttributes> = {}): DonationAttributes {
  return {
    destination: { recipientId: '840-123456789' },
    funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 2500, source: 'COMPANY' },
    donor: { fullName: 'Ada Lovelace', email: 'ada@example.com', receipted: true },
    metadata: { 'Employee ID': 'E-1001' },
    ...overrides,
  };
}
