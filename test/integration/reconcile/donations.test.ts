import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/contract';
import { closeDatabase } from '../../../electron/services/db/deskDatabase';
import {
  expectFailure,
  openDesk,
  serviceFaults,
  startSandbox,
  uploadGifts,
  type Desk,
  type GiftRow,
  type Sandbox,
} from './harness';

const LIFE = ['ACCEPTED', 'INITIATED', 'IN_PROGRESS', 'PAID', 'CLEARED'];

let s: Sandbox;
let desk: Desk;
let gifts: GiftRow[];
let bulkId: string;

beforeAll(async () => {
  s = await startSandbox();
  desk = await openDesk(s);
  gifts = Array.from({ length: 57 }, (_, i) => ({
    recipient: s.good[i % s.good.length] as string,
    amount: `${10 + i}.${String(i % 100).padStart(2, '0')}`,
    currency: i % 4 === 0 ? 'EUR' : 'USD',
  }));
  // Rows the service takes into the bulk and declines later, each for its own reason.
  gifts[5] = { recipient: s.unknownCause, amount: '5.00', currency: 'USD' };
  gifts[17] = { recipient: s.unknownCause, amount: '7.25', currency: 'EUR' };
  gifts[30] = { recipient: s.notInGoodStanding[0] as string, amount: '9.99', currency: 'USD' };
  bulkId = await uploadGifts(s, desk, gifts);
}, 60_000);

afterAll(async () => {
  await desk.runtime.close();
  await s.close();
});

describe('donations of an upload', () => {
  it('reads every page of a small page size, each donation once, tied to its workspace row', async () => {
    const progress: Array<EventPayload<'job.progress'>> = [];
    const stop = desk.runtime.events.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
      if (name === 'job.progress') progress.push(payload as EventPayload<'job.progress'>);
    });
    const listed = await desk.call('donations.list', { pageSize: 4, jobId: 'first-list' });
    stop();
    expect(listed.pages).toBe(Math.ceil(57 / 4));
    expect(listed.donations).toHaveLength(57);
    expect(new Set(listed.donations.map((d) => d.id)).size).toBe(57);
    expect(progress.map((p) => p.done)).toEqual(
      Array.from({ length: listed.pages }, (_, i) => Math.min(57, (i + 1) * 4)),
    );
    expect(progress.every((p) => p.jobId === 'first-list' && p.kind === 'donations')).toBe(true);
    // Each row key (1..57) exactly once, with its spreadsheet row number and its own amount.
    const byKey = new Map(listed.donations.map((d) => [d.row?.rowKey, d]));
    for (let key = 1; key <= 57; key++) {
      const d = byKey.get(key);
      const gift = gifts[key - 1] as GiftRow;
      expect(d?.row).toMatchObject({ rowKey: key, rowNumber: key + 1, method: 'reference' });
      expect(d?.amount).toBe(Math.round(Number(gift.amount) * 100));
      expect(d?.currencyCode).toBe(gift.currency);
      expect(d?.recipientId).toBe(gift.recipient);
      expect(d?.bulkId).toBe(bulkId);
      expect(d?.state).toBe('ACCEPTED');
      expect(d?.history.map((h) => h.state)).toEqual(['ACCEPTED']);
    }
  });

  it('follows every donation through each state to CLEARED or DECLINED with the clock advanced', async () => {
    // Every state lasts at least two virtual minutes, so refreshing every two minutes sees each one.
    let open = 57;
    let rounds = 0;
    let last = await desk.call('donations.list', { cached: true });
    while (open > 0 && rounds < 400) {
      await s.emu.advance(120);
      last = await desk.call('donations.refresh', { pageSize: 25 });
      open = last.donations.filter((d) => d.state !== 'CLEARED' && d.state !== 'DECLINED').length;
      rounds++;
    }
    expect(open).toBe(0);
    expect(last.donations).toHaveLength(57);
    const declined = last.donations.filter((d) => d.state === 'DECLINED');
    expect(declined.map((d) => d.row?.rowKey).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([6, 18, 31]);
    for (const d of declined) {
      expect(d.history.map((h) => h.state)).toEqual(['ACCEPTED', 'DECLINED']);
      expect(d.errors).toHaveLength(1);
      expect(d.errors[0]?.pointer).toBe('/data/attributes/destination/recipientId');
      expect(d.errors[0]?.code).toBe(
        d.row?.rowKey === 31 ? 'CAUSE_NOT_IN_GOOD_STANDING' : 'RECIPIENT_NOT_FOUND',
      );
      expect(d.errors[0]?.title).not.toBe('');
    }
    for (const d of last.donations.filter((x) => x.state === 'CLEARED')) {
      const states = d.history.map((h) => h.state);
      // A failed payment goes back from PAID to INITIATED and round again before it clears.
      const retried = [
        'ACCEPTED',
        'INITIATED',
        'IN_PROGRESS',
        'PAID',
        'INITIATED',
        'IN_PROGRESS',
        'PAID',
        'CLEARED',
      ];
      expect([LIFE, retried]).toContainEqual(states);
      expect(d.payablePaymentType).toMatch(/^(CHEQUE|EFT|PAYPAL)$/);
      const seen = d.history.map((h) => h.seenAt);
      expect([...seen].sort()).toEqual(seen);
    }
  }, 60_000);

  it('filters by status and totals per status, currency and upload to the minor unit', async () => {
    const declined = await desk.call('donations.list', { status: 'DECLINED', pageSize: 2 });
    expect(declined.donations.map((d) => d.state)).toEqual(['DECLINED', 'DECLINED', 'DECLINED']);
    expect(declined.pages).toBe(2);

    const summary = await desk.call('donations.summary', {});
    const minor = (g: GiftRow): number => Math.round(Number(g.amount) * 100);
    const expected = new Map<string, { count: number; amount: number }>();
    gifts.forEach((g, i) => {
      const status = [5, 17, 30].includes(i) ? 'DECLINED' : 'CLEARED';
      const key = `${status} ${g.currency}`;
      const t = expected.get(key) ?? { count: 0, amount: 0 };
      t.count++;
      t.amount += minor(g);
      expected.set(key, t);
    });
    expect(
      new Map(
        summary.byStatus.map((t) => [`${t.status} ${t.currencyCode}`, { count: t.count, amount: t.amount }]),
      ),
    ).toEqual(expected);
    expect(summary.uploads).toHaveLength(1);
    const upload = summary.uploads[0];
    expect(upload?.reconciled).toBe(true);
    expect(upload?.notes).toEqual([]);
    const usd = gifts.filter((g) => g.currency === 'USD');
    expect(upload?.submitted.find((t) => t.currencyCode === 'USD')).toEqual({
      currencyCode: 'USD',
      count: usd.length,
      amount: usd.reduce((n, g) => n + minor(g), 0),
    });
    expect(upload?.declined.find((t) => t.currencyCode === 'EUR')).toEqual({
      currencyCode: 'EUR',
      count: 1,
      amount: 725,
    });
    expect(upload?.pending).toEqual([]);
  });

  it('stops between pages when cancelled and keeps what it read', async () => {
    let cancelled: Promise<unknown> | null = null;
    const statuses: string[] = [];
    const stop = desk.runtime.events.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
      if (name === 'job.progress' && !cancelled) {
        cancelled = desk.call('donations.cancel', { jobId: 'to-cancel' });
      }
      if (name === 'job.status') statuses.push((payload as EventPayload<'job.status'>).status);
    });
    const failure = await expectFailure(desk.call('donations.list', { pageSize: 3, jobId: 'to-cancel' }));
    stop();
    expect(failure.code).toBe('CANCELLED');
    expect(await cancelled).toEqual({ cancelled: true });
    expect(statuses).toEqual(['running', 'cancelled']);
    const cached = await desk.call('donations.list', { cached: true });
    expect(cached.donations).toHaveLength(57);
  });

  it('ties donations to rows by content when the upload carried no reference pair', async () => {
    const twins: GiftRow[] = [
      { recipient: s.good[0] as string, amount: '3.00', currency: 'USD', employee: 'same' },
      { recipient: s.good[0] as string, amount: '3.00', currency: 'USD', employee: 'same' },
      { recipient: s.good[1] as string, amount: '4.00', currency: 'USD', employee: 'other' },
    ];
    const plainBulk = await uploadGifts(s, desk, twins, 900, { reference: false });
    const listed = await desk.call('donations.list', { bulkIds: [plainBulk] });
    expect(listed.donations).toHaveLength(3);
    expect(listed.donations.every((d) => d.metadata.ddRef === undefined)).toBe(true);
    // Identical twins take one row each; the other gift finds its own row.
    expect(listed.donations.map((d) => d.row?.rowKey).sort()).toEqual([900, 901, 902]);
    expect(listed.donations.every((d) => d.row?.method === 'fingerprint')).toBe(true);
    expect(listed.donations.find((d) => d.amount === 400)?.row?.rowKey).toBe(902);
  });

  it('puts declined donations right: a corrected replacement tied to the same row, or a dismissal', async () => {
    const all = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    const byKey = (key: number) => all.donations.find((d) => d.row?.rowKey === key);
    const unknown = byKey(6);
    const notInGoodStanding = byKey(31);
    expect(unknown?.state).toBe('DECLINED');

    const invalid = await expectFailure(
      desk.call('donations.correct', { donationId: unknown?.id as string, changes: { amount: -5 } }),
    );
    expect(invalid.code).toBe('INVALID_DONATION');
    const notDeclined = await expectFailure(
      desk.call('donations.correct', { donationId: byKey(1)?.id as string, changes: {} }),
    );
    expect(notDeclined.code).toBe('NOT_DECLINED');

    const fixed = await desk.call('donations.correct', {
      donationId: unknown?.id as string,
      changes: { recipientId: s.good[2] as string },
    });
    expect(fixed.replacement).toMatchObject({
      state: 'ACCEPTED',
      recipientId: s.good[2],
      amount: 500,
      currencyCode: 'USD',
      bulkId: null,
      replaces: unknown?.id,
      row: { rowKey: 6, rowNumber: 7 },
    });
    expect(fixed.replacement.metadata).toMatchObject({
      ddRef: unknown?.metadata.ddRef,
      ddReplaces: unknown?.id,
    });
    expect(fixed.declined.resolution).toMatchObject({
      kind: 'replaced',
      replacementId: fixed.replacement.id,
    });
    const twice = await expectFailure(
      desk.call('donations.correct', { donationId: unknown?.id as string, changes: {} }),
    );
    expect(twice.code).toBe('ALREADY_RESOLVED');

    const dismissed = await desk.call('donations.dismiss', {
      donationId: notInGoodStanding?.id as string,
      reason: 'The charity was told and will reapply next quarter',
    });
    expect(dismissed.resolution).toMatchObject({
      kind: 'dismissed',
      reason: 'The charity was told and will reapply next quarter',
    });

    const summary = await desk.call('donations.summary', {});
    const first = summary.uploads.find((u) => u.bulkIds.includes(bulkId));
    expect(first?.declinedOpen).toBe(1);

    // The replacement is followed like any other donation, though it belongs to no bulk.
    for (let i = 0; i < 5; i++) {
      await s.emu.advance(120);
      await desk.call('donations.refresh', {});
    }
    const after = await desk.call('donations.list', { bulkIds: [], cached: true });
    const replacement = after.donations.find((d) => d.id === fixed.replacement.id);
    expect(replacement?.history.map((h) => h.state).slice(0, 2)).toEqual(['ACCEPTED', 'INITIATED']);

    const report = await desk.call('donations.report', { month: new Date().toISOString().slice(0, 7) });
    const usd = report.lines.find((l) => l.currencyCode === 'USD');
    const eur = report.lines.find((l) => l.currencyCode === 'EUR');
    expect(usd).toMatchObject({
      declinedResolved: { count: 2, amount: 500 + 999 },
      declinedOpen: { count: 0, amount: 0 },
      replacements: { count: 1, amount: 500 },
      reconciled: true,
    });
    expect(eur).toMatchObject({ declinedOpen: { count: 1, amount: 725 }, reconciled: true });
    // The plain-reference-free upload of three USD gifts is in the month too.
    expect(usd?.submitted.count).toBe(gifts.filter((g) => g.currency === 'USD').length + 3);
    expect(report.reconciled).toBe(true);
  });

  it('never sends a correction twice blindly after an answer that did not come', async () => {
    const all = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    const open = all.donations.find((d) => d.row?.rowKey === 18);
    expect(open).toMatchObject({ state: 'DECLINED', resolution: null });
    await serviceFaults(s, { error500Rate: 1 });
    try {
      const lost = await expectFailure(
        desk.call('donations.correct', {
          donationId: open?.id as string,
          changes: { recipientId: s.good[3] as string },
        }),
      );
      expect(lost.code).toBe('AMBIGUOUS');
    } finally {
      await serviceFaults(s, { reset: true });
    }
    const pending = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    expect(pending.donations.find((d) => d.id === open?.id)?.resolution?.kind).toBe('replacing');
    const refused = await expectFailure(
      desk.call('donations.correct', {
        donationId: open?.id as string,
        changes: { recipientId: s.good[3] as string },
      }),
    );
    expect(refused.code).toBe('MAYBE_REPLACED');
    const sent = await desk.call('donations.correct', {
      donationId: open?.id as string,
      changes: { recipientId: s.good[3] as string },
      confirmRetry: true,
    });
    expect(sent.declined.resolution).toMatchObject({ kind: 'replaced', replacementId: sent.replacement.id });
    expect(sent.replacement).toMatchObject({ amount: 725, currencyCode: 'EUR', row: { rowKey: 18 } });
  });

  it('gives the stored list page by page, counted by the database, the same as the whole list', async () => {
    const whole = await desk.call('donations.list', { cached: true });
    expect(whole.total).toBe(whole.donations.length);
    // A correction sent one by one and the donations of two bulks: every kind of member is present.
    expect(whole.donations.some((d) => d.bulkId === null && d.replaces !== null)).toBe(true);
    expect(new Set(whole.donations.map((d) => d.bulkId)).size).toBeGreaterThan(2);

    // Read through with a cursor: the same donations in the same order, none twice, and an end.
    const paged: string[] = [];
    let after: { firstSeenAt: string; seq: number } | undefined;
    for (let step = 0; step < 100; step++) {
      const page = await desk.call('donations.list', { cached: true, limit: 7, ...(after ? { after } : {}) });
      expect(page.total).toBe(whole.total);
      paged.push(...page.donations.map((d) => d.id));
      if (!page.next) break;
      after = page.next;
    }
    expect(paged).toEqual(whole.donations.map((d) => d.id));
    expect((await desk.call('donations.list', { cached: true, limit: 0 })).donations).toEqual([]);

    // The screen's pages: by offset, with each filter counted as the whole list would count it.
    const screen = async (filter: { bulk?: string | null; status?: 'DECLINED' }) => {
      const ids: string[] = [];
      let first;
      for (let offset = 0; ; offset += 10) {
        const page = await desk.call('donations.page', { ...filter, offset, limit: 10 });
        first ??= page;
        ids.push(...page.donations.map((d) => d.id));
        if (page.donations.length < 10) break;
      }
      return { ids, first: first as NonNullable<typeof first> };
    };
    const every = await screen({});
    expect(every.ids).toEqual(whole.donations.map((d) => d.id));
    expect(every.first.total).toBe(whole.total);
    expect(every.first.bulkIds).toContain(bulkId);
    const declined = whole.donations.filter((d) => d.state === 'DECLINED');
    const open = declined.filter((d) => d.resolution === null || d.resolution.kind === 'replacing');
    expect(every.first.declinedOpen).toBe(open.length);
    const onlyDeclined = await screen({ status: 'DECLINED' });
    expect(onlyDeclined.first.total).toBe(declined.length);
    expect(new Set(onlyDeclined.ids)).toEqual(new Set(declined.map((d) => d.id)));
    const ofBulk = await screen({ bulk: bulkId });
    expect(ofBulk.ids).toEqual(whole.donations.filter((d) => d.bulkId === bulkId).map((d) => d.id));
    expect(ofBulk.first.total).toBe(ofBulk.ids.length);
    const oneByOne = await screen({ bulk: null });
    expect(oneByOne.ids).toEqual(whole.donations.filter((d) => d.bulkId === null).map((d) => d.id));
    expect(oneByOne.first.total).toBeGreaterThan(0);
    // Open declined ones first when the declined list is asked for so.
    const openFirst = await desk.call('donations.page', {
      status: 'DECLINED',
      order: 'openFirst',
      offset: 0,
      limit: 500,
    });
    const isOpen = openFirst.donations.map((d) => d.resolution === null || d.resolution.kind === 'replacing');
    expect(isOpen).toEqual([...isOpen].sort((a, b) => Number(b) - Number(a)));

    // The totals per status, summed by SQL, agree with the list.
    const summary = await desk.call('donations.summary', {});
    const listedCount = summary.byStatus.reduce((n, t) => n + t.count, 0);
    expect(listedCount).toBe(whole.total);
  });

  it('keeps every state seen across a restart, and refuses a damaged database without touching it', async () => {
    const before = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    await desk.runtime.close();
    desk = await openDesk(s);
    const after = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    expect(after.donations).toEqual(before.donations);
    expect(after.lastRefreshAt).toBe(before.lastRefreshAt);

    // The database damaged (a disk fault, a bad copy): refused with its name, never started empty over.
    const path = join(s.dataDir, 'desk.db');
    await desk.runtime.close();
    closeDatabase(s.dataDir);
    const garbage = Buffer.alloc(8192, 7);
    await writeFile(path, garbage);
    await rm(`${path}-wal`, { force: true });
    await rm(`${path}-shm`, { force: true });
    desk = await openDesk(s);
    const refused = await expectFailure(desk.call('donations.list', { cached: true }));
    expect(refused.code).toBe('DB_UNREADABLE');
    expect(refused.message).toContain(path);
    expect(await readFile(path)).toEqual(garbage);
  });
});
