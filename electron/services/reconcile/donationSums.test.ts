import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { REPLACES_KEY } from '../../../shared/mapping';
import { closeDatabase, databaseOf } from '../db/deskDatabase';
import {
  bulkStates,
  count,
  cursorAfter,
  linkedRows,
  oneByOne,
  page,
  type DonationScope,
} from './donationPaging';
import { bulkSums, bulksWithDonations, declinedOpen, oneByOneSums, totals } from './donationSums';
import { SumChanges, writeDonation } from './donationWrites';
import type { StoredDonation } from './storedDonation';

let dir: string;
let scope: DonationScope;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-sums-'));
  scope = { db: databaseOf(dir), environment: 'production' };
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

type Status = DonationResource['attributes']['state']['processingStatus'];

function donation(
  id: string,
  status: Status,
  bulkId: string | null,
  seen: string,
  extra: { amount?: number; replaces?: string; rowKey?: number } = {},
): StoredDonation {
  return {
    resource: {
      type: 'donations',
      id,
      attributes: {
        destination: { recipientId: 'r-1' },
        funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: extra.amount ?? 100 },
        state: { processingStatus: status, statusLastUpdated: seen },
        bulkId,
        ...(extra.replaces ? { metadata: { [REPLACES_KEY]: extra.replaces } } : {}),
      },
    },
    history: [{ state: status, seenAt: seen, statusLastUpdated: seen }],
    row:
      extra.rowKey === undefined
        ? null
        : { workspaceId: 'w', rowKey: extra.rowKey, rowNumber: extra.rowKey + 2, method: 'reference' },
    firstSeenAt: seen,
    lastSeenAt: seen,
    resolution: null,
    replaces: extra.replaces ?? null,
  };
}

function write(...donations: StoredDonation[]): void {
  scope.db.transaction(() => {
    const changes = new SumChanges();
    for (const d of donations) writeDonation(scope.db, scope.environment, d, changes);
    changes.apply(scope.db, scope.environment);
  });
}

beforeEach(() => {
  write(
    donation('d1', 'CLEARED', 'b1', '2026-11-01T00:00:00.000Z', { amount: 300, rowKey: 0 }),
    donation('d2', 'DECLINED', 'b1', '2026-11-02T00:00:00.000Z', { amount: 200, rowKey: 1 }),
    donation('d3', 'PAID', 'b2', '2026-11-03T00:00:00.000Z'),
    donation('c1', 'INITIATED', null, '2026-11-04T00:00:00.000Z', { amount: 200, replaces: 'd2' }),
  );
});

describe('donation totals', () => {
  it('per status and currency, for the environment or some bulks', () => {
    expect(totals(scope).map((t) => [t.status, t.count, t.amount])).toEqual([
      ['CLEARED', 1, 300],
      ['DECLINED', 1, 200],
      ['INITIATED', 1, 200],
      ['PAID', 1, 100],
    ]);
    expect(totals(scope, { bulkIds: ['b1'], corrections: true }).map((t) => t.status)).toEqual([
      'CLEARED',
      'DECLINED',
      'INITIATED',
    ]);
  });

  it('per bulk with the open declined ones, and of those sent one by one per month', () => {
    const b1 = bulkSums(scope, ['b1']);
    expect(b1.find((s) => s.status === 'DECLINED')).toMatchObject({ count: 1, open: 1, openAmount: 200 });
    expect(declinedOpen(scope, { bulkIds: ['b1'] })).toBe(1);
    expect(bulksWithDonations(scope, ['b1', 'b9'])).toEqual(['b1']);
    expect(oneByOneSums(scope, '2026-11')).toMatchObject([
      { status: 'INITIATED', currencyCode: 'USD', mark: 'replaces', count: 1, amount: 200 },
    ]);
    expect(oneByOneSums(scope, '2026-10')).toEqual([]);
  });
});

describe('donation pages', () => {
  it('in the order first seen, continued after a cursor, and counted', () => {
    const first = page(scope, { limit: 2 });
    expect(first.map((d) => d.resource.id)).toEqual(['d1', 'd2']);
    const after = cursorAfter(scope, 'd2') ?? undefined;
    expect(page(scope, { limit: 10, ...(after ? { after } : {}) }).map((d) => d.resource.id)).toEqual([
      'd3',
      'c1',
    ]);
    expect(count(scope, { bulkIds: ['b1'], corrections: true })).toBe(3);
    expect(count(scope, {})).toBe(4);
  });

  it('tells which bulks are open and which rows are taken, and what was sent one by one', () => {
    const states = bulkStates(scope);
    expect(states.open).toEqual(['b2']);
    expect([...states.listed].sort()).toEqual(['b1', 'b2']);
    expect(linkedRows(scope, ['b1'])).toEqual([
      { bulkId: 'b1', rowKey: 0 },
      { bulkId: 'b1', rowKey: 1 },
    ]);
    expect(oneByOne(scope)).toEqual([
      { id: 'c1', firstSeenAt: '2026-11-04T00:00:00.000Z', kind: 'replaces' },
    ]);
  });
});
