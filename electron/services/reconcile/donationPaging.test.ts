import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { closeDatabase } from '../db/deskDatabase';
import { DonationStore } from './donationStore';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-paging-'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

function declined(id: string): DonationResource {
  return {
    type: 'donations',
    id,
    attributes: {
      destination: { recipientId: 'r-1' },
      funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
      state: { processingStatus: 'DECLINED', statusLastUpdated: '2026-11-01T00:00:00.000Z' },
      bulkId: 'b1',
    },
  };
}

describe('a page of declined donations, open ones first', () => {
  it('gives the open ones (replacing too) in the order first seen, then the replaced and dismissed, whatever the page', async () => {
    const store = await DonationStore.open(join(dir, 'reconcile', 'donations-offline.json'));
    // Twelve declined, first seen in turn (two at the same moment: then in the order recorded).
    const seen = (i: number) => `2026-11-01T00:00:${String(i === 5 ? 4 : i).padStart(2, '0')}.000Z`;
    for (let i = 0; i < 12; i++) store.record(declined(`d${i}`), null, seen(i));
    const closed = new Set(['d0', 'd3', 'd4', 'd9']);
    for (const id of closed) {
      store.resolve(
        id,
        id === 'd3'
          ? { kind: 'replaced', at: 'x', replacementId: 'n3' }
          : {
              kind: 'dismissed',
              at: 'x',
              reason: 'duplicate',
            },
      );
    }
    store.resolve('d7', { kind: 'replacing', at: 'x' });
    await store.save();

    const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
    const expected = [...ids.filter((id) => !closed.has(id)), ...ids.filter((id) => closed.has(id))];
    const query = { bulkIds: ['b1'], status: 'DECLINED' as const, order: 'openFirst' as const };
    expect(store.page({ ...query, limit: 50 }).map((d) => d.resource.id)).toEqual(expected);
    // Every page size and start: the same order, cut where asked (across the open/closed boundary too).
    for (const limit of [1, 3, 5, 8]) {
      for (let offset = 0; offset <= 13; offset++) {
        expect(
          store.page({ ...query, limit, offset }).map((d) => d.resource.id),
          `limit ${limit}, offset ${offset}`,
        ).toEqual(expected.slice(offset, offset + limit));
      }
    }
  });
});
