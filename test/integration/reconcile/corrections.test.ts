import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedgerView } from '../../../electron/services/reconcile/ledgerView';
import {
  expectFailure,
  followUpload,
  openDesk,
  serviceFaults,
  startSandbox,
  uploadGifts,
  type Desk,
  type GiftRow,
  type Sandbox,
} from './harness';

let s: Sandbox;
let desk: Desk;
let bulkId: string;

beforeAll(async () => {
  s = await startSandbox();
  desk = await openDesk(s);
  const gifts: GiftRow[] = [
    { recipient: s.good[0] as string, amount: '10.00', currency: 'USD' },
    { recipient: s.unknownCause, amount: '12.34', currency: 'USD', employee: 'E-ada' },
    { recipient: s.notInGoodStanding[0] as string, amount: '1500', currency: 'JPY' },
    { recipient: s.unknownCause, amount: '0.125', currency: 'KWD' },
    { recipient: s.unknownCause, amount: '3.00', currency: 'USD' },
  ];
  bulkId = await uploadGifts(s, desk, gifts);
  await s.emu.advance(600);
  await desk.call('donations.list', {});
}, 60_000);

afterAll(async () => {
  await desk.runtime.close();
  await s.close();
});

describe('declined donations fixed in a grid and sent together as one bulk file', () => {
  it('makes a workspace of the declined ones, sends it once, and links each to its replacement', async () => {
    const listed = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    const declined = listed.donations.filter((d) => d.state === 'DECLINED');
    expect(declined).toHaveLength(4);
    const chosen = declined.filter((d) => d.row?.rowKey !== 5).sort((a, b) => a.row!.rowKey - b.row!.rowKey);
    const notChosen = declined.find((d) => d.row?.rowKey === 5);

    const made = await desk.call('donations.fixInGrid', { donationIds: chosen.map((d) => d.id) });
    expect(made.rows).toBe(3);
    const workspace = await desk.call('workspace.open', { id: made.workspaceId });
    expect(workspace.name).toBe(made.name);
    const col = (header: string) => workspace.headers.indexOf(header);
    expect(workspace.headers.slice(0, 6)).toEqual([
      'Replaces donation',
      'Declined because',
      'Recipient ID',
      'Foundation ID',
      'Amount',
      'Currency',
    ]);
    // The user's metadata comes along; the app's own pairs do not (the new rows get their own).
    expect(workspace.headers).toContain('employee');
    expect(workspace.headers).not.toContain('ddRef');
    const cells = workspace.rows.map((r) => r.cells);
    expect(cells.map((c) => c[col('Replaces donation')])).toEqual(chosen.map((d) => d.id));
    // Amounts written back exactly in each currency's own digits.
    expect(cells.map((c) => [c[col('Amount')], c[col('Currency')]])).toEqual([
      ['12.34', 'USD'],
      ['1500', 'JPY'],
      ['0.125', 'KWD'],
    ]);
    expect(cells[0]?.[col('employee')]).toBe('E-ada');
    expect(cells[0]?.[col('Declined because')]).toMatch(
      /^Recipient: The service does not know this recipient \(RECIPIENT_NOT_FOUND\)/,
    );

    // A bulk fix: one good cause for every row, as fill down or paste would do it.
    const edited = await desk.call('workspace.edit', {
      id: workspace.id,
      baseVersion: workspace.version,
      edits: workspace.rows.map((r) => ({
        op: 'set' as const,
        key: r.key,
        column: col('Recipient ID'),
        value: s.good[1] as string,
      })),
    });
    expect(edited.version).toBeGreaterThan(workspace.version);

    const started = await desk.call('upload.start', { workspaceId: workspace.id });
    // While the upload carries them, the declined ones show it and cannot be corrected another way.
    const during = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    for (const d of chosen) {
      expect(during.donations.find((x) => x.id === d.id)?.inUpload).toMatchObject({
        uploadId: started.uploadId,
        workspaceName: made.name,
      });
    }
    expect(during.donations.find((x) => x.id === notChosen?.id)?.inUpload).toBeNull();
    const single = await expectFailure(
      desk.call('donations.correct', { donationId: chosen[0]!.id, changes: {} }),
    );
    expect(single.code).toBe('IN_UPLOAD');
    const dismiss = await expectFailure(
      desk.call('donations.dismiss', { donationId: chosen[0]!.id, reason: 'not needed any more' }),
    );
    expect(dismiss.code).toBe('IN_UPLOAD');
    const again = await expectFailure(desk.call('donations.fixInGrid', { donationIds: [chosen[1]!.id] }));
    expect(again.code).toBe('REPLACEMENT_REFUSED');
    expect(again.message).toMatch(/already being replaced/);

    const newBulk = await followUpload(s, desk, started.uploadId);
    const ledger = await readLedgerView(join(s.dataDir, 'uploads'));
    const group = ledger.groups.find((g) => g.id === started.uploadId);
    expect(group?.replaces.map((r) => r.donationId).sort()).toEqual(chosen.map((d) => d.id).sort());

    const after = await desk.call('donations.list', {});
    const replacements = after.donations.filter((d) => d.bulkId === newBulk);
    expect(replacements).toHaveLength(3);
    for (const d of chosen) {
      const replacement = replacements.find((r) => r.replaces === d.id);
      expect(replacement).toMatchObject({
        recipientId: s.good[1],
        amount: d.amount,
        currencyCode: d.currencyCode,
        row: { workspaceId: workspace.id, method: 'reference' },
      });
      expect(replacement?.metadata.ddReplaces).toBe(d.id);
      const now = after.donations.find((x) => x.id === d.id);
      expect(now?.resolution).toMatchObject({ kind: 'replaced', replacementId: replacement?.id });
      expect(now?.inUpload).toBeNull();
    }
    expect(after.donations.find((d) => d.id === notChosen?.id)?.resolution).toBeNull();

    // Sending the same corrections again is refused even when the duplicate warning is waved through.
    const twice = await expectFailure(
      desk.call('upload.start', { workspaceId: workspace.id, confirmDuplicates: 'all' }),
    );
    expect(twice.code).toBe('REPLACEMENT_REFUSED');
    expect(twice.message).toMatch(/already replaced/);
  });

  it('sends a corrections workspace one by one instead, once, skipping what is already replaced', async () => {
    const listed = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    const open = listed.donations.find((d) => d.state === 'DECLINED' && d.resolution === null);
    const replaced = listed.donations.find((d) => d.resolution?.kind === 'replaced');
    const made = await desk.call('donations.fixInGrid', { donationIds: [open!.id] });
    const workspace = await desk.call('workspace.open', { id: made.workspaceId });
    const col = (header: string) => workspace.headers.indexOf(header);
    const cells = workspace.rows[0]!.cells;
    const copy = (changes: Record<string, string>) =>
      cells.map((c, i) => changes[workspace.headers[i] as string] ?? c);
    await desk.call('workspace.edit', {
      id: workspace.id,
      baseVersion: workspace.version,
      edits: [
        { op: 'set', key: 0, column: col('Recipient ID'), value: s.good[3] as string },
        // A row for a declined donation the bulk file already replaced, and a row still wrong.
        {
          op: 'insert',
          index: 1,
          row: { key: 1, rowNumber: null, cells: copy({ 'Replaces donation': replaced!.id }) },
        },
        {
          op: 'insert',
          index: 2,
          row: { key: 2, rowNumber: null, cells: copy({ 'Replaces donation': open!.id, Amount: '-1' }) },
        },
      ],
    });
    const before = (await desk.call('donations.list', { bulkIds: [], cached: true })).donations.length;
    const sent = await desk.call('donations.correctFromWorkspace', { workspaceId: workspace.id });
    expect(sent.results.map((r) => [r.rowKey, r.outcome])).toEqual([
      [0, 'replaced'],
      [1, 'already-replaced'],
      [2, 'invalid'],
    ]);
    const replacementId = sent.results[0]!.replacementId as string;
    const after = await desk.call('donations.list', { bulkIds: [], cached: true });
    expect(after.donations).toHaveLength(before + 1);
    expect(after.donations.find((d) => d.id === open!.id)?.resolution).toMatchObject({
      kind: 'replaced',
      replacementId,
    });
    expect(after.donations.find((d) => d.id === replacementId)).toMatchObject({
      recipientId: s.good[3],
      amount: open!.amount,
      bulkId: null,
      replaces: open!.id,
      row: { workspaceId: workspace.id, rowKey: 0, method: 'reference' },
      metadata: { ddReplaces: open!.id },
    });
    // Run again: nothing is sent twice.
    const again = await desk.call('donations.correctFromWorkspace', { workspaceId: workspace.id });
    expect(again.results[0]).toMatchObject({ outcome: 'already-replaced', replacementId });
    expect((await desk.call('donations.list', { bulkIds: [], cached: true })).donations).toHaveLength(
      before + 1,
    );
    const preview = await desk.call('upload.preview', { workspaceId: workspace.id });
    expect(preview.replacements).toBe(2);
  });

  it('refuses a workspace of donations that are not open declined ones', async () => {
    const listed = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    const cleared = listed.donations.find((d) => d.state !== 'DECLINED');
    const failure = await expectFailure(
      desk.call('donations.fixInGrid', { donationIds: [cleared!.id, 'no-such-donation'] }),
    );
    expect(failure.code).toBe('REPLACEMENT_REFUSED');
    expect((failure.details as { problems: string[] }).problems).toHaveLength(2);
  });
});

describe('a single donation from the form', () => {
  const form = () => ({
    fields: {
      recipientId: s.good[2] as string,
      amount: '1,234.50',
      currencyCode: 'usd',
      'donor.fullName': 'Ada Lovelace',
      'donor.email': 'ada@example.org',
      'donor.receipted': 'yes',
      'donor.address.country': 'GB',
    },
    metadata: [{ key: 'campaign', value: 'Winter appeal' }],
  });

  it('is checked by the row rules, created once, listed and followed like any other', async () => {
    const invalid = await expectFailure(
      desk.call('donations.create', {
        clientRef: randomUUID(),
        form: { ...form(), fields: { ...form().fields, amount: '10.005', 'donor.email': 'ada@' } },
      }),
    );
    expect(invalid.code).toBe('INVALID_DONATION');
    expect(invalid.message).toMatch(/10\.01/);
    expect(invalid.message).toMatch(/Email/);

    const clientRef = randomUUID();
    const made = await desk.call('donations.create', { clientRef, form: form() });
    expect(made.created).toBe(true);
    expect(made.donation).toMatchObject({
      state: 'ACCEPTED',
      recipientId: s.good[2],
      amount: 123450,
      currencyCode: 'USD',
      donorName: 'Ada Lovelace',
      bulkId: null,
      metadata: { campaign: 'Winter appeal', ddSingle: clientRef },
    });
    // The same form sent again (a double click, a retry) answers with the donation already made.
    const again = await desk.call('donations.create', { clientRef, form: form() });
    expect(again).toMatchObject({ created: false, donation: { id: made.donation.id } });

    const listed = await desk.call('donations.list', { cached: true });
    expect(listed.donations.some((d) => d.id === made.donation.id)).toBe(true);
    for (let i = 0; i < 4; i++) {
      await s.emu.advance(120);
      await desk.call('donations.refresh', {});
    }
    const followed = (await desk.call('donations.list', { cached: true })).donations.find(
      (d) => d.id === made.donation.id,
    );
    expect(followed?.history.map((h) => h.state).slice(0, 2)).toEqual(['ACCEPTED', 'INITIATED']);

    // The month-end report counts it apart from the uploads' control totals, which still reconcile.
    const report = await desk.call('donations.report', { month: new Date().toISOString().slice(0, 7) });
    const usd = report.lines.find((l) => l.currencyCode === 'USD');
    expect(usd?.singles).toEqual({ count: 1, amount: 123450 });
    expect(usd?.reconciled).toBe(true);
  });

  it('after an answer that never came, sends again only when told to', async () => {
    const clientRef = randomUUID();
    await serviceFaults(s, { error500Rate: 1 });
    try {
      const lost = await expectFailure(desk.call('donations.create', { clientRef, form: form() }));
      expect(lost.code).toBe('AMBIGUOUS');
    } finally {
      await serviceFaults(s, { reset: true });
    }
    const refused = await expectFailure(desk.call('donations.create', { clientRef, form: form() }));
    expect(refused.code).toBe('MAYBE_CREATED');
    expect(refused.message).toContain(clientRef);
    const sent = await desk.call('donations.create', { clientRef, form: form(), confirmRetry: true });
    expect(sent.created).toBe(true);
  });
});

describe('recipient type-ahead and check', () => {
  it('suggests causes by name and checks ids with the service', async () => {
    const info = (await (await fetch(`${s.emu.apiBaseUrl}/_emulator/info`)).json()) as {
      samples: { causesInGoodStanding: Array<{ id: string; name: string }> };
    };
    const cause = info.samples.causesInGoodStanding[0]!;
    const word = cause.name.split(' ')[0]!.slice(0, 4);
    const suggested = await desk.call('causes.autocomplete', { q: word });
    expect(suggested.available).toBe(true);
    expect(suggested.causes.length).toBeGreaterThan(0);
    expect(suggested.causes.every((c) => c.name.toLowerCase().includes(word.toLowerCase()))).toBe(true);

    expect(await desk.call('causes.check', { recipientId: cause.id })).toMatchObject({
      status: 'found',
      label: cause.name,
    });
    expect(await desk.call('causes.check', { recipientId: s.unknownCause })).toMatchObject({
      status: 'unknown',
    });
    expect(await desk.call('causes.check', { recipientId: `${cause.id}/NOPROJECT1` })).toMatchObject({
      status: 'unknown-project',
    });
    expect(await desk.call('causes.check', { recipientId: 'climate-portfolio' })).toMatchObject({
      status: 'not-checked',
    });
  });
});
