import { describe, expect, it } from 'vitest';
import { planBulkFiles } from '../../../shared/bulk-file/serializeBulkFile';
import type { DonationAttributes } from '../../../shared/donation';
import { planParts } from './prepare';

const donations: DonationAttributes[] = Array.from({ length: 2_500 }, (_, i) => ({
  destination: { recipientId: '840-123456789' },
  funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'EUR', amount: 100 + i },
  metadata: { note: 'é'.repeat(i % 7) },
}));

describe('planParts', () => {
  it('splits by rows and by bytes exactly as the shared planner does, without blocking', async () => {
    for (const limits of [
      { maxRows: 1_000, maxBytes: Number.MAX_SAFE_INTEGER },
      { maxRows: Number.MAX_SAFE_INTEGER, maxBytes: 50_000 },
      { maxRows: 700, maxBytes: 90_000 },
      { maxRows: 50_000, maxBytes: 100 * 1024 * 1024 },
    ]) {
      expect(await planParts(donations, limits)).toEqual(planBulkFiles(donations, limits));
    }
    expect(await planParts([], { maxRows: 10, maxBytes: 10 })).toEqual([]);
  });
});
