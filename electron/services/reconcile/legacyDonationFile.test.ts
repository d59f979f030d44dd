import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, databaseOf } from '../db/deskDatabase';
import { IMPORTED_SUFFIX } from '../db/legacyFiles';
import { importLegacyDonationFile } from './legacyDonationFile';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-legacy-'));
  await mkdir(join(dir, 'reconcile'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

const file = () => join(dir, 'reconcile', 'donations-production.json');
const declined = {
  resource: {
    type: 'donations',
    id: 'd1',
    attributes: {
      destination: { recipientId: 'r-1' },
      funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
      state: { processingStatus: 'DECLINED', statusLastUpdated: '2026-11-01T00:00:00.000Z' },
      bulkId: 'b1',
    },
  },
  history: [{ state: 'DECLINED', seenAt: '2026-11-02T00:00:00.000Z', statusLastUpdated: null }],
  row: null,
  firstSeenAt: '2026-11-02T00:00:00.000Z',
  lastSeenAt: '2026-11-02T00:00:00.000Z',
};

describe('the donation file of version 0.1', () => {
  it('is imported once, with its sums, singles and last refresh, and kept beside', async () => {
    await writeFile(
      file(),
      JSON.stringify({
        version: 1,
        lastRefreshAt: '2026-11-03T00:00:00.000Z',
        donations: [declined],
        singles: [{ clientRef: 'ref-1', at: '2026-11-01T00:00:00.000Z', donationId: null }],
      }),
    );
    const db = databaseOf(dir);
    await importLegacyDonationFile(db, 'production', file());
    await importLegacyDonationFile(db, 'production', file());
    expect(db.all('SELECT id, status, resolution FROM donation')).toEqual([
      { id: 'd1', status: 'DECLINED', resolution: null },
    ]);
    expect(db.all('SELECT n, open FROM donation_sum WHERE n != 0')).toEqual([{ n: 1, open: 1 }]);
    expect(db.all('SELECT client_ref FROM single_attempt')).toEqual([{ client_ref: 'ref-1' }]);
    expect(db.all('SELECT last_refresh_at FROM donation_refresh')).toEqual([
      { last_refresh_at: '2026-11-03T00:00:00.000Z' },
    ]);
    await expect(access(`${file()}${IMPORTED_SUFFIX}`)).resolves.toBeUndefined();
  });

  it('is refused when unreadable, and left as it was', async () => {
    await writeFile(file(), '{ not json');
    await expect(importLegacyDonationFile(databaseOf(dir), 'production', file())).rejects.toMatchObject({
      code: 'STORE_UNREADABLE',
    });
    await expect(access(file())).resolves.toBeUndefined();
  });
});
