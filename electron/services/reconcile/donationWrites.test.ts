import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { closeDatabase, databaseOf, type DeskDatabase } from '../db/deskDatabase';
import {
  insertNewDonations,
  SumChanges,
  touchDonations,
  writeDonation,
  writeRefresh,
  writeSingle,
} from './donationWrites';
import type { StoredDonation } from './storedDonation';

let dir: string;
let db: DeskDatabase;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-writes-'));
  db = databaseOf(dir);
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

const donation = (
  id: string,
  status: DonationResource['attributes']['state']['processingStatus'],
  amount = 100,
  over: Partial<StoredDonation> = {},
): StoredDonation => ({
  resource: {
    type: 'donations',
    id,
    attributes: {
      destination: { recipientId: 'r-1' },
      funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount },
      state: { processingStatus: status, statusLastUpdated: '2026-11-01T00:00:00.000Z' },
      bulkId: 'b1',
    },
  },
  history: [{ state: status, seenAt: '2026-11-02T00:00:00.000Z', statusLastUpdated: null }],
  row: null,
  firstSeenAt: '2026-11-02T00:00:00.000Z',
  lastSeenAt: '2026-11-02T00:00:00.000Z',
  resolution: null,
  replaces: null,
  ...over,
});

const sums = () =>
  db.all<{ status: string; open: number; n: number; amount: number }>(
    'SELECT status, open, n, amount FROM donation_sum WHERE environment = ? AND n != 0 ORDER BY status',
    'production',
  );

function write(...donations: StoredDonation[]): void {
  db.transaction(() => {
    const changes = new SumChanges();
    for (const d of donations) writeDonation(db, 'production', d, changes);
    changes.apply(db, 'production');
  });
}

describe('writing donations', () => {
  it('moves a donation’s count and amount in the running sums as its state changes', () => {
    write(donation('d1', 'INITIATED'), donation('d2', 'INITIATED', 50));
    expect(sums()).toEqual([{ status: 'INITIATED', open: 0, n: 2, amount: 150 }]);
    write(donation('d1', 'DECLINED'));
    expect(sums()).toEqual([
      { status: 'DECLINED', open: 1, n: 1, amount: 100 },
      { status: 'INITIATED', open: 0, n: 1, amount: 50 },
    ]);
    // Dismissed: no longer open.
    write(donation('d1', 'DECLINED', 100, { resolution: { kind: 'dismissed', at: 'x', reason: 'y' } }));
    expect(sums()[0]).toEqual({ status: 'DECLINED', open: 0, n: 1, amount: 100 });
  });

  it('inserts a donation not stored when read as it is, and counts it once', () => {
    db.transaction(() => {
      const changes = new SumChanges();
      writeDonation(db, 'production', donation('d1', 'INITIATED'), changes, null);
      changes.apply(db, 'production');
    });
    expect(sums()).toEqual([{ status: 'INITIATED', open: 0, n: 1, amount: 100 }]);
    const row = db.get<{ bulk_id: string; status: string; resource: string }>(
      'SELECT bulk_id, status, resource FROM donation WHERE id = ?',
      'd1',
    );
    expect(row?.bulk_id).toBe('b1');
    expect(JSON.parse(row?.resource ?? '')).toEqual(donation('d1', 'INITIATED').resource);
  });

  it('writes over, and moves the sums of, a donation another process stored after it was read', () => {
    // Stored by another process as INITIATED; this one read it as new and now has it PAID.
    write(donation('d1', 'INITIATED'));
    db.transaction(() => {
      const changes = new SumChanges();
      writeDonation(db, 'production', donation('d1', 'PAID', 100), changes, null);
      changes.apply(db, 'production');
    });
    expect(sums()).toEqual([{ status: 'PAID', open: 0, n: 1, amount: 100 }]);
    expect(db.get('SELECT count(*) AS n FROM donation')).toEqual({ n: 1 });
  });

  it('inserts a batch of new donations in the order given, each row as one at a time would write it', () => {
    // 278 = 250 + 25 + 3: every statement size, each row stored as writeDonation stores it.
    const batch = Array.from({ length: 278 }, (_, i) =>
      donation(`n${String(i).padStart(3, '0')}`, i % 3 === 0 ? 'DECLINED' : 'INITIATED', i + 1, {
        row: { workspaceId: 'w1', rowKey: i, rowNumber: i + 2, method: 'reference' },
        ...(i === 7 ? { resolution: { kind: 'dismissed', at: 'x', reason: 'y' } } : {}),
        ...(i === 8 ? { replaces: 'n007' } : {}),
      }),
    );
    db.transaction(() => {
      const changes = new SumChanges();
      insertNewDonations(db, 'production', batch, changes);
      changes.apply(db, 'production');
    });
    const batched = db.all('SELECT * FROM donation ORDER BY rowid');
    const batchedSums = sums();
    db.run('DELETE FROM donation');
    db.run('DELETE FROM donation_sum');
    db.transaction(() => {
      const changes = new SumChanges();
      for (const d of batch) writeDonation(db, 'production', d, changes, null);
      changes.apply(db, 'production');
    });
    expect(batched.map((r) => (r as { id: string }).id)).toEqual(batch.map((d) => d.resource.id));
    expect(batched).toEqual(db.all('SELECT * FROM donation ORDER BY rowid'));
    expect(batchedSums).toEqual(sums());
    expect(batchedSums.reduce((n, r) => n + r.n, 0)).toBe(278);
  });

  it('writes over, without counting twice, new donations of a batch another process stored meanwhile', () => {
    // Another process stored n1 (INITIATED) and n30 (DECLINED) after this one read them as new.
    write(donation('n1', 'INITIATED', 5), donation('n30', 'DECLINED', 7));
    const batch = Array.from({ length: 40 }, (_, i) => donation(`n${i}`, 'CLEARED', 10));
    db.transaction(() => {
      const changes = new SumChanges();
      insertNewDonations(db, 'production', batch, changes);
      changes.apply(db, 'production');
    });
    expect(sums()).toEqual([{ status: 'CLEARED', open: 0, n: 40, amount: 400 }]);
    expect(db.get('SELECT count(*) AS n FROM donation')).toEqual({ n: 40 });
    expect(db.get<{ status: string }>('SELECT status FROM donation WHERE id = ?', 'n30')).toEqual({
      status: 'CLEARED',
    });
  });

  it('moves only when a donation was last seen, for those answered as stored', () => {
    write(donation('d1', 'PAID'));
    touchDonations(db, 'production', [['d1', '2026-11-05T00:00:00.000Z']]);
    expect(db.get<{ last_seen_at: string }>('SELECT last_seen_at FROM donation WHERE id = ?', 'd1')).toEqual({
      last_seen_at: '2026-11-05T00:00:00.000Z',
    });
  });

  it('notes and drops single attempts, and the last refresh', () => {
    writeSingle(db, 'production', 'ref-1', { clientRef: 'ref-1', at: 'x', donationId: null });
    expect(db.all('SELECT client_ref FROM single_attempt')).toEqual([{ client_ref: 'ref-1' }]);
    writeSingle(db, 'production', 'ref-1', null);
    expect(db.all('SELECT client_ref FROM single_attempt')).toEqual([]);
    writeRefresh(db, 'production', '2026-11-06T00:00:00.000Z');
    writeRefresh(db, 'production', '2026-11-07T00:00:00.000Z');
    expect(db.all('SELECT last_refresh_at FROM donation_refresh')).toEqual([
      { last_refresh_at: '2026-11-07T00:00:00.000Z' },
    ]);
  });
});
