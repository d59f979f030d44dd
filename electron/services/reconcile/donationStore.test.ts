import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { closeDatabase, databaseOf } from '../db/deskDatabase';
import { DonationStore } from './donationStore';

let dir: string;
const storePath = (environment = 'offline'): string =>
  join(dir, 'reconcile', `donations-${environment}.json`);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-donations-'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

type Status = DonationResource['attributes']['state']['processingStatus'];

function resource(
  id: string,
  status: Status,
  extra: { bulkId?: string | null; amount?: number; currency?: string; updated?: string } = {},
): DonationResource {
  return {
    type: 'donations',
    id,
    attributes: {
      destination: { recipientId: 'r-1' },
      funds: {
        paymentType: 'DONATION_REPORT',
        currencyCode: extra.currency ?? 'USD',
        amount: extra.amount ?? 100,
      },
      state: { processingStatus: status, statusLastUpdated: extra.updated ?? '2026-11-01T00:00:00.000Z' },
      bulkId: extra.bulkId === undefined ? 'b1' : extra.bulkId,
    },
  };
}

/** As after a restart: the shared connection closed, a new store on the same folder. */
async function reopen(environment = 'offline'): Promise<DonationStore> {
  closeDatabase(dir);
  return DonationStore.open(storePath(environment));
}

describe('DonationStore in the database', () => {
  it('keeps history, row, resolution, single attempts and the last refresh across a restart once saved', async () => {
    const store = await DonationStore.open(storePath());
    const row = { workspaceId: 'ws', rowKey: 3, rowNumber: 4, method: 'reference' as const };
    store.record(resource('d1', 'INITIATED'), row, '2026-11-02T00:00:00.000Z');
    store.record(
      resource('d1', 'DECLINED', { updated: '2026-11-03T00:00:00.000Z' }),
      null,
      '2026-11-03T00:00:00.000Z',
    );
    store.resolve('d1', { kind: 'dismissed', at: '2026-11-04T00:00:00.000Z', reason: 'Closed' });
    store.putSingle({ clientRef: 'c1', at: '2026-11-02T00:00:00.000Z', donationId: null });
    store.putSingle({ clientRef: 'c2', at: '2026-11-02T00:00:00.000Z', donationId: 'd9' });
    store.dropSingle('c1');
    store.markRefreshed('2026-11-05T00:00:00.000Z');
    await store.save();

    const again = await reopen();
    const d1 = again.get('d1');
    expect(d1?.history.map((h) => h.state)).toEqual(['INITIATED', 'DECLINED']);
    expect(d1?.row).toEqual(row);
    expect(d1?.firstSeenAt).toBe('2026-11-02T00:00:00.000Z');
    expect(d1?.resolution).toMatchObject({ kind: 'dismissed', reason: 'Closed' });
    expect(again.single('c1')).toBeUndefined();
    expect(again.single('c2')).toMatchObject({ donationId: 'd9' });
    expect(again.lastRefreshAt()).toBe('2026-11-05T00:00:00.000Z');
  });

  it('holds changes until save: a crash before it leaves the last saved picture', async () => {
    const store = await DonationStore.open(storePath());
    store.record(resource('d1', 'INITIATED'), null, '2026-11-02T00:00:00.000Z');
    await store.save();
    store.record(
      resource('d1', 'CLEARED', { updated: '2026-11-03T00:00:00.000Z' }),
      null,
      '2026-11-03T00:00:00.000Z',
    );
    store.record(resource('d2', 'INITIATED'), null, '2026-11-03T00:00:00.000Z');
    // Seen by this process before the save…
    expect(store.get('d1')?.resource.attributes.state.processingStatus).toBe('CLEARED');
    expect(
      store
        .all()
        .map((d) => d.resource.id)
        .sort(),
    ).toEqual(['d1', 'd2']);
    // …but not on disk: another process (or this one after a crash) sees the saved state.
    const other = await reopen();
    expect(other.get('d1')?.resource.attributes.state.processingStatus).toBe('INITIATED');
    expect(other.get('d2')).toBeUndefined();
  });

  it('keeps the first save of a donation two processes first saw at once', async () => {
    const a = await DonationStore.open(storePath());
    const b = await DonationStore.open(storePath());
    a.record(resource('d1', 'INITIATED'), null, '2026-11-02T00:00:00.000Z');
    b.record(resource('d1', 'INITIATED'), null, '2026-11-03T00:00:00.000Z');
    await a.save();
    await b.save();
    expect((await reopen()).get('d1')?.firstSeenAt).toBe('2026-11-02T00:00:00.000Z');
  });

  it('keeps each environment apart in the one database', async () => {
    const offline = await DonationStore.open(storePath('offline'));
    const sandbox = await DonationStore.open(storePath('sandbox'));
    offline.record(resource('d1', 'INITIATED'), null, '2026-11-02T00:00:00.000Z');
    await offline.save();
    expect(sandbox.get('d1')).toBeUndefined();
    expect(sandbox.all()).toEqual([]);
  });

  it('lists every donation in the order first seen, whatever their ids or states', async () => {
    const store = await DonationStore.open(storePath());
    store.record(resource('zz-single', 'ACCEPTED', { bulkId: null }), null, '2026-11-02T00:00:00.000Z');
    await store.save();
    for (const [id, status] of [
      ['c1', 'CLEARED'],
      ['a1', 'DECLINED'],
      ['b1', 'PAID'],
    ] as const)
      store.record(resource(id, status), null, '2026-11-02T01:00:00.000Z');
    await store.save();
    store.record(resource('zz-single', 'DECLINED', { bulkId: null }), null, '2026-11-02T02:00:00.000Z');
    await store.save();
    expect((await reopen()).all().map((d) => d.resource.id)).toEqual(['zz-single', 'c1', 'a1', 'b1']);
  });

  it('answers pages, counts and totals by SQL, the same as over every donation', async () => {
    const store = await DonationStore.open(storePath());
    const statuses: Status[] = ['INITIATED', 'CLEARED', 'DECLINED', 'PAID'];
    for (let i = 0; i < 250; i++) {
      store.record(
        resource(`d${String(i).padStart(3, '0')}`, statuses[i % 4] as Status, {
          bulkId: i < 200 ? `b${i % 2}` : null,
          amount: 100 + i,
          currency: i % 5 === 0 ? 'EUR' : 'USD',
        }),
        i < 200 ? { workspaceId: 'ws', rowKey: i, rowNumber: i + 2, method: 'reference' } : null,
        `2026-11-02T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
      );
    }
    await store.save();
    const all = store.all();

    const pages = [0, 100, 200].flatMap((offset) =>
      store.page({ bulkIds: ['b0'], limit: 100, offset, order: 'firstSeen' }),
    );
    // First seen, then as recorded (the ids were recorded in their own order).
    const b0 = all
      .filter((d) => d.resource.attributes.bulkId === 'b0')
      .sort(
        (x, y) => x.firstSeenAt.localeCompare(y.firstSeenAt) || x.resource.id.localeCompare(y.resource.id),
      )
      .map((d) => d.resource.id);
    expect(pages.map((d) => d.resource.id)).toEqual(b0);
    expect(store.count({ bulkIds: ['b0'] })).toBe(100);
    expect(store.count({ status: 'DECLINED' })).toBe(
      all.filter((d) => d.resource.attributes.state.processingStatus === 'DECLINED').length,
    );

    const expected = new Map<string, { count: number; amount: number }>();
    for (const d of all) {
      const a = d.resource.attributes;
      const key = `${a.state.processingStatus} ${a.funds.currencyCode}`;
      const t = expected.get(key) ?? { count: 0, amount: 0 };
      t.count++;
      t.amount += a.funds.amount;
      expected.set(key, t);
    }
    const totals = store.totals();
    expect(
      new Map(totals.map((t) => [`${t.status} ${t.currencyCode}`, { count: t.count, amount: t.amount }])),
    ).toEqual(expected);

    expect(
      store
        .linkedRows(['b1'])
        .map((r) => r.rowKey)
        .sort((a, b) => a - b),
    ).toEqual(
      all
        .filter((d) => d.resource.attributes.bulkId === 'b1')
        .map((d) => d.row?.rowKey)
        .sort((a = 0, b = 0) => a - b),
    );
    expect(store.bulkStates()).toEqual({ open: ['b0', 'b1'], listed: ['b0', 'b1'] });
  });

  it('keeps the running sums right as donations change state, amount and resolution', async () => {
    const store = await DonationStore.open(storePath());
    for (let i = 0; i < 40; i++) {
      store.record(resource(`s${i}`, 'INITIATED', { bulkId: `b${i % 2}`, amount: 100 + i }), null, 'a');
    }
    await store.save();
    // Every donation of b0 ends CLEARED or DECLINED (one amount changed), two declined are resolved.
    for (let i = 0; i < 40; i += 2) {
      const status: Status = i % 4 === 0 ? 'CLEARED' : 'DECLINED';
      store.record(
        resource(`s${i}`, status, { bulkId: 'b0', amount: i === 2 ? 999 : 100 + i, updated: '2026-11-02' }),
        null,
        'b',
      );
    }
    store.resolve('s2', { kind: 'dismissed', at: 'c', reason: 'duplicate' });
    store.resolve('s6', { kind: 'replacing', at: 'c' });
    await store.save();
    const all = store.all();
    const expected = (bulkId: string) => {
      const sums = new Map<string, { count: number; amount: number; open: number }>();
      for (const d of all.filter((x) => x.resource.attributes.bulkId === bulkId)) {
        const a = d.resource.attributes;
        const t = sums.get(a.state.processingStatus) ?? { count: 0, amount: 0, open: 0 };
        t.count++;
        t.amount += a.funds.amount;
        if (a.state.processingStatus === 'DECLINED' && (!d.resolution || d.resolution.kind === 'replacing'))
          t.open++;
        sums.set(a.state.processingStatus, t);
      }
      return sums;
    };
    for (const bulkId of ['b0', 'b1']) {
      const got = store.bulkSums([bulkId]);
      expect(new Map(got.map((t) => [t.status, { count: t.count, amount: t.amount, open: t.open }]))).toEqual(
        expected(bulkId),
      );
    }
    expect(store.bulkSums(['b0']).find((t) => t.status === 'DECLINED')).toMatchObject({ count: 10, open: 9 });
    expect(store.count({ bulkIds: ['b0', 'b1'], singles: true, corrections: true })).toBe(40);
    expect(store.totals().reduce((n, t) => n + t.count, 0)).toBe(40);
    // b0 has nothing left to follow.
    expect(store.bulkStates()).toEqual({ open: ['b1'], listed: ['b0', 'b1'] });
  });

  it('writes only when it was last seen for a donation answered exactly as stored', async () => {
    const store = await DonationStore.open(storePath());
    const row = { workspaceId: 'ws', rowKey: 1, rowNumber: 2, method: 'reference' as const };
    store.record(resource('u1', 'INITIATED', { amount: 300 }), row, '2026-11-02T00:00:00.000Z');
    store.record(resource('u2', 'INITIATED', { amount: 500 }), null, '2026-11-02T00:00:00.000Z');
    await store.save();
    const db = databaseOf(dir);
    // Counts every write of a record (its resource) from here on, whichever path writes it.
    db.db.exec(`CREATE TEMP TABLE rewrites (id TEXT);
      CREATE TEMP TRIGGER count_rewrites AFTER UPDATE OF resource, history ON donation
      BEGIN INSERT INTO rewrites VALUES (new.id); END;`);
    const sumsBefore = db.all('SELECT * FROM donation_sum ORDER BY 1, 2, 3, 4, 5, 6');
    // The same answer again (u1 with its row, as a refresh passes it); u2 changed state.
    const known = store.known('u1');
    const same = store.record(
      resource('u1', 'INITIATED', { amount: 300 }),
      known?.row ?? null,
      '2026-11-03T00:00:00.000Z',
    );
    store.record(
      resource('u2', 'CLEARED', { amount: 500, updated: '2026-11-03' }),
      null,
      '2026-11-03T00:00:00.000Z',
    );
    expect(same).toMatchObject({
      lastSeenAt: '2026-11-03T00:00:00.000Z',
      firstSeenAt: '2026-11-02T00:00:00.000Z',
      row,
    });
    // Read before the save: the new time, not the saved one.
    expect(store.get('u1')?.lastSeenAt).toBe('2026-11-03T00:00:00.000Z');
    await store.save();
    expect(db.all<{ id: string }>('SELECT id FROM rewrites')).toEqual([{ id: 'u2' }]);
    const again = await reopen();
    const u1 = again.get('u1');
    expect(u1?.history).toEqual([
      {
        state: 'INITIATED',
        seenAt: '2026-11-02T00:00:00.000Z',
        statusLastUpdated: '2026-11-01T00:00:00.000Z',
      },
    ]);
    expect(u1).toMatchObject({
      lastSeenAt: '2026-11-03T00:00:00.000Z',
      firstSeenAt: '2026-11-02T00:00:00.000Z',
      row,
    });
    expect(again.get('u2')?.history.map((h) => h.state)).toEqual(['INITIATED', 'CLEARED']);
    // The sums moved for u2 only: u1's 300 still counts once as INITIATED.
    const byStatus = new Map(again.bulkSums(['b1']).map((t) => [t.status, [t.count, t.amount]]));
    expect(byStatus).toEqual(
      new Map([
        ['INITIATED', [1, 300]],
        ['CLEARED', [1, 500]],
      ]),
    );
    expect(sumsBefore).not.toEqual(
      databaseOf(dir).all('SELECT * FROM donation_sum ORDER BY 1, 2, 3, 4, 5, 6'),
    );
  });

  it('records a changed row, link or resolution in full even when the resource is the same', async () => {
    const store = await DonationStore.open(storePath());
    store.record(resource('v1', 'DECLINED'), null, 'a');
    await store.save();
    const row = { workspaceId: 'ws', rowKey: 7, rowNumber: 8, method: 'fingerprint' as const };
    store.record(resource('v1', 'DECLINED'), row, 'b');
    await store.save();
    expect((await reopen()).get('v1')).toMatchObject({ row, lastSeenAt: 'b' });
    const next = await reopen();
    next.resolve('v1', { kind: 'dismissed', at: 'c', reason: 'duplicate' });
    next.record(resource('v1', 'DECLINED'), null, 'd');
    await next.save();
    const last = await reopen();
    expect(last.get('v1')).toMatchObject({ row, lastSeenAt: 'd', resolution: { kind: 'dismissed' } });
    expect(last.declinedOpen({})).toBe(0);
  });

  it('keeps the sums exact when another process rewrote a donation between the read and the save', async () => {
    const store = await DonationStore.open(storePath());
    store.record(resource('w1', 'INITIATED', { amount: 100 }), null, 'a');
    await store.save();
    // Read here (what it counts under: INITIATED 100), answered CLEARED ...
    store.record(resource('w1', 'CLEARED', { amount: 100, updated: '2026-11-02' }), null, 'b');
    // ... while another process stored it ACCEPTED with another amount, sums and all.
    const db = databaseOf(dir);
    db.transaction(() => {
      db.run("UPDATE donation SET status = 'ACCEPTED', amount = 250 WHERE id = 'w1'");
      db.run("UPDATE donation_sum SET n = n - 1, amount = amount - 100 WHERE status = 'INITIATED'");
      db.run(
        `INSERT INTO donation_sum (environment, bulk_id, status, currency, mark, open, n, amount)
         VALUES ('offline', 'b1', 'ACCEPTED', 'USD', '', 0, 1, 250)`,
      );
    });
    await store.save();
    const sums = store.bulkSums(['b1']).map((t) => [t.status, t.count, t.amount]);
    expect(sums).toEqual([['CLEARED', 1, 100]]);
  });

  it("reads a page's stored donations ahead in one query, and nothing read before a save is used after it", async () => {
    const store = await DonationStore.open(storePath());
    const row = { workspaceId: 'ws', rowKey: 1, rowNumber: 2, method: 'reference' as const };
    for (let i = 0; i < 4; i++) {
      store.record(resource(`p${i}`, 'INITIATED', { amount: 100 + i }), i === 0 ? row : null, 'a');
    }
    await store.save();
    const db = databaseOf(dir);
    // A page from the service: p0 and p2 as stored, p1 and p3 cleared, n1 never seen.
    const page = [
      resource('p0', 'INITIATED', { amount: 100 }),
      resource('p1', 'CLEARED', { amount: 101, updated: '2026-11-02' }),
      resource('p2', 'INITIATED', { amount: 102 }),
      resource('p3', 'CLEARED', { amount: 103, updated: '2026-11-02' }),
      resource('n1', 'INITIATED', { amount: 7 }),
    ];
    db.db.exec(`CREATE TEMP TABLE rewrites (id TEXT);
      CREATE TEMP TRIGGER count_rewrites AFTER UPDATE OF resource, history ON donation
      BEGIN INSERT INTO rewrites VALUES (new.id); END;`);
    const reads = vi.spyOn(db, 'get');
    store.prefetch(page.map((r) => r.id));
    const rows = page.map((r) => {
      const known = store.known(r.id);
      store.record(r, known?.row ?? null, 'b');
      return known === undefined ? 'new' : known.row;
    });
    // Known or not, and the row, from the read ahead: no donation was looked up on its own.
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(rows).toEqual([row, null, null, null, 'new']);
    await store.save();
    // Those answered as stored were compared with what was read ahead, and only seen again.
    expect(db.all<{ id: string }>('SELECT id FROM rewrites ORDER BY id')).toEqual([
      { id: 'p1' },
      { id: 'p3' },
    ]);
    const saved = await reopen();
    expect(saved.get('p0')).toMatchObject({ row, lastSeenAt: 'b', firstSeenAt: 'a' });
    expect(saved.get('p1')?.history.map((h) => h.state)).toEqual(['INITIATED', 'CLEARED']);
    expect(saved.get('p2')?.history.map((h) => h.state)).toEqual(['INITIATED']);
    expect(saved.get('n1')).toMatchObject({ firstSeenAt: 'b', row: null });
    expect(saved.bulkSums(['b1']).map((t) => [t.status, t.count, t.amount])).toEqual([
      ['CLEARED', 2, 204],
      ['INITIATED', 3, 209],
    ]);

    // Read ahead, then a save (here with nothing to write), then another process moves p2 on: the
    // answer that follows is recorded over what that process wrote, not over the read before the save.
    saved.prefetch(['p2']);
    await saved.save();
    const other = databaseOf(dir);
    other.transaction(() => {
      other.run(
        `UPDATE donation SET status = 'ACCEPTED', status_updated = '2026-11-02',
           history = json_insert(history, '$[#]', json_object('state', 'ACCEPTED', 'seenAt', 'x',
             'statusLastUpdated', '2026-11-02')) WHERE id = 'p2'`,
      );
      other.run("UPDATE donation_sum SET n = n - 1, amount = amount - 102 WHERE status = 'INITIATED'");
      other.run(
        `INSERT INTO donation_sum (environment, bulk_id, status, currency, mark, open, n, amount)
         VALUES ('offline', 'b1', 'ACCEPTED', 'USD', '', 0, 1, 102)`,
      );
    });
    saved.record(resource('p2', 'CLEARED', { amount: 102, updated: '2026-11-03' }), null, 'c');
    await saved.save();
    expect(saved.get('p2')?.history.map((h) => h.state)).toEqual(['INITIATED', 'ACCEPTED', 'CLEARED']);
    expect(saved.bulkSums(['b1']).map((t) => [t.status, t.count, t.amount])).toEqual([
      ['CLEARED', 3, 306],
      ['INITIATED', 2, 107],
    ]);
    // The bulk's counts and open declined ones come from the running sums, by state too.
    expect(saved.count({ bulkIds: ['b1'] })).toBe(5);
    expect(saved.count({ bulkIds: ['b1'], status: 'CLEARED' })).toBe(3);
    expect(saved.declinedOpen({ bulkIds: ['b1'] })).toBe(0);
  });

  it('refuses an unreadable store file of version 0.1 and leaves it untouched', async () => {
    await mkdir(join(dir, 'reconcile'), { recursive: true });
    await writeFile(storePath(), '{"version": 1, "donations": [');
    await expect(DonationStore.open(storePath())).rejects.toMatchObject({ code: 'STORE_UNREADABLE' });
    expect(await readFile(storePath(), 'utf8')).toBe('{"version": 1, "donations": [');
  });
});
