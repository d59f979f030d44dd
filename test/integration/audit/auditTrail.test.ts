import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk, type DeskRuntime } from '../../../electron/services';
import { closeDatabase, databaseOf } from '../../../electron/services/db/deskDatabase';
import {
  dispatch,
  type ChannelInput,
  type ChannelName,
  type ChannelResponse,
} from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import { HEADERS, followUpload, startSandbox, type Sandbox } from '../reconcile/harness';

let s: Sandbox;
let runtime: DeskRuntime;
let person = 'ana';
/** The declined donations of the first test's upload, in row order. */
let declinedIds: string[] = [];

async function call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelResponse<C>> {
  const result = await dispatch(runtime.services, channel, input, { transport: 'test' });
  if (!result.ok) throw new DeskFailure(result.error.code, result.error.message, result.error.details);
  return result.value as ChannelResponse<C>;
}

beforeAll(async () => {
  s = await startSandbox();
  runtime = await startDesk(
    {
      mode: 'cli',
      dataDir: s.dataDir,
      appVersion: 'test',
      assetsDir: s.dataDir,
      secretBox: null,
      openExternal: async () => undefined,
      // Who is at the keyboard changes during the test: read at each entry.
      identity: { person: () => person, computer: () => 'FINANCE-PC-7' },
      env: { DONATION_DESK_POLL_MIN_MS: '50', DONATION_DESK_POLL_MAX_MS: '200' },
    },
    { startOffline: async () => ({ ...s.emu, close: async () => undefined }) },
  );
}, 60_000);

afterAll(async () => {
  await runtime.close();
  closeDatabase(s.dataDir);
  await s.close();
});

describe('the audit trail through the services', () => {
  it('records an import, edits, an upload, a dismissal and a settings change, in order, with who and when', async () => {
    const started = new Date().toISOString();
    const fileBytes = Buffer.from('the spreadsheet as read');
    const sha256 = createHash('sha256').update(fileBytes).digest('hex');
    const rows = [
      { key: 1, rowNumber: 2, cells: [s.good[0]!, '10.00', 'USD', 'E1'] },
      { key: 2, rowNumber: 3, cells: [s.good[1]!, '20.00', 'USD', 'E2'] },
      { key: 3, rowNumber: 4, cells: [s.good[2]!, '7.50', 'EUR', 'E3'] },
      { key: 4, rowNumber: 5, cells: [s.unknownCause, '5.00', 'USD', 'E4'] },
      { key: 5, rowNumber: 6, cells: [s.unknownCause, '3.00', 'USD', 'E5'] },
      { key: 6, rowNumber: 7, cells: [s.unknownCause, '2.00', 'EUR', 'E6'] },
    ];
    const mapping = {
      template: {
        columns: {
          'Charity ID': 'recipientId',
          Amount: 'amount',
          Currency: 'currencyCode',
          Employee: 'metadata.employee',
        },
        amountUnit: 'major',
      },
      numberStyle: 'dot-decimal',
      reference: { enabled: true, key: 'ddRef' },
    };
    const created = await call('workspace.create', {
      name: 'November gifts',
      source: {
        fileName: 'november.xlsx',
        format: 'xlsx',
        sheet: 'Gifts',
        headerRow: 1,
        headerRowCount: 1,
        totalsRow: null,
        skippedBlankRows: 0,
        warnings: [],
        fileBytes: fileBytes.length,
        sha256,
      },
      headers: HEADERS,
      rows,
      mapping,
    });
    const workspaceId = created.id;
    // One cell, then a bulk edit of two cells (one entry listing both).
    let { version } = await call('workspace.edit', {
      id: workspaceId,
      baseVersion: 0,
      edits: [{ op: 'set', key: 1, column: 1, value: '12.00' }],
    });
    ({ version } = await call('workspace.edit', {
      id: workspaceId,
      baseVersion: version,
      edits: [
        { op: 'set', key: 2, column: 3, value: 'E2-b' },
        { op: 'set', key: 3, column: 3, value: 'E3-b' },
      ],
    }));
    expect(version).toBe(3);

    person = 'ben';
    const upload = await call('upload.start', { workspaceId });
    const bulkId = await followUpload(s, { runtime, call }, upload.uploadId);

    // The unknown cause is declined once the service gets to it.
    for (let round = 0; round < 60 && declinedIds.length < 3; round++) {
      await s.emu.advance(120);
      const listed = await call('donations.list', { bulkIds: [bulkId] });
      declinedIds = listed.donations
        .filter((d) => d.state === 'DECLINED')
        .sort((a, b) => (a.row?.rowKey ?? 0) - (b.row?.rowKey ?? 0))
        .map((d) => d.id);
    }
    expect(declinedIds).toHaveLength(3);
    const declined = declinedIds[0];
    await call('donations.dismiss', {
      donationId: declined!,
      reason: 'The cause closed; paid by cheque instead',
    });

    person = 'carla';
    await call('settings.save', {
      environment: 'sandbox',
      remote: {
        id: 'sandbox',
        addresses: {
          baseUrl: 'https://api.sandbox.example.org',
          tokenUrl: 'https://auth.sandbox.example.org/oauth2/token',
          programDomain: 'giving.example.org',
        },
        clientId: 'desk-client',
        clientSecret: 'never-in-the-trail',
      },
    });

    const page = await call('audit.list', { filter: {} });
    const oldestFirst = [...page.entries].reverse();
    expect(oldestFirst.map((e) => [e.action, e.person])).toEqual([
      ['import', 'ana'],
      ['edit', 'ana'],
      ['edit', 'ana'],
      ['upload', 'ben'],
      ['dismiss', 'ben'],
      ['settings', 'carla'],
    ]);
    for (const entry of oldestFirst) {
      expect(entry.computer).toBe('FINANCE-PC-7');
      expect(entry.at >= started && entry.at <= new Date().toISOString()).toBe(true);
    }
    expect(oldestFirst.map((e) => e.at)).toEqual([...oldestFirst.map((e) => e.at)].sort());
    const [imported, edit, bulkEdit, sent, dismissed, settings] = oldestFirst;
    expect(imported).toMatchObject({
      workspaceId,
      environment: 'offline',
      details: {
        fileName: 'november.xlsx',
        fileBytes: fileBytes.length,
        sha256,
        sheet: 'Gifts',
        rows: 6,
        mapping,
      },
    });
    expect(edit?.details.cells).toEqual([{ key: 1, row: 2, column: 'Amount', from: '10.00', to: '12.00' }]);
    expect(bulkEdit?.details.cells).toEqual([
      { key: 2, row: 3, column: 'Employee', from: 'E2', to: 'E2-b' },
      { key: 3, row: 4, column: 'Employee', from: 'E3', to: 'E3-b' },
    ]);
    const fileHash = upload.upload.intents[0]!.fileHash;
    expect(sent).toMatchObject({
      workspaceId,
      uploadId: upload.uploadId,
      environment: 'offline',
      details: {
        rows: 6,
        totals: expect.arrayContaining([
          { currencyCode: 'USD', count: 4, amount: 1200 + 2000 + 500 + 300 },
          { currencyCode: 'EUR', count: 2, amount: 750 + 200 },
        ]),
        files: [expect.objectContaining({ sha256: fileHash, rowNumbers: [2, 3, 4, 5, 6, 7] })],
      },
    });
    expect(fileHash).toMatch(/^[0-9a-f]{64}$/);
    expect(dismissed).toMatchObject({
      donationId: declined,
      details: { reason: 'The cause closed; paid by cheque instead', amount: 500, currencyCode: 'USD' },
    });
    expect(settings).toMatchObject({
      environment: 'offline',
      details: {
        changes: expect.arrayContaining([
          { setting: 'environment', from: 'offline', to: 'sandbox' },
          { setting: 'sandbox.clientId', from: '', to: 'desk-client' },
          { setting: 'sandbox.clientSecret', change: 'replaced' },
        ]),
      },
    });
    // Never a secret, anywhere in the table.
    const raw = databaseOf(s.dataDir).all<{ details: string }>('SELECT details FROM audit');
    expect(raw.some((r) => r.details.includes('never-in-the-trail'))).toBe(false);

    // The filters through the channel: by upload, by donation, by person.
    expect(
      (await call('audit.list', { filter: { uploadId: upload.uploadId } })).entries.map((e) => e.action),
    ).toEqual(['upload']);
    expect((await call('audit.list', { filter: { donationId: declined! } })).total).toBe(1);
    expect((await call('audit.list', { filter: { person: 'ana' } })).total).toBe(3);
    expect(page.people).toEqual(['ana', 'ben', 'carla']);
  }, 120_000);

  it('records corrections one by one and in bulk, with the declined donation and the replacement', async () => {
    person = 'erin';
    // Back to the Offline sandbox, where the upload's donations are.
    await call('settings.save', { environment: 'offline' });
    const [, oneByOne, inBulk] = declinedIds as [string, string, string];
    // A correction the app refuses is recorded with what was asked and why.
    const refused = await call('donations.correct', { donationId: oneByOne, changes: { amount: -5 } }).catch(
      (e: DeskFailure) => e,
    );
    expect(refused).toMatchObject({ code: 'INVALID_DONATION' });
    const fixed = await call('donations.correct', {
      donationId: oneByOne,
      changes: { recipientId: s.good[3]! },
    });
    const made = await call('donations.fixInGrid', { donationIds: [inBulk] });
    const workspace = await call('workspace.open', { id: made.workspaceId });
    const recipientColumn = workspace.headers.indexOf('Recipient ID');
    await call('workspace.edit', {
      id: workspace.id,
      baseVersion: workspace.version,
      edits: [{ op: 'set', key: 0, column: recipientColumn, value: s.good[4]! }],
    });
    const sent = await call('donations.correctFromWorkspace', { workspaceId: workspace.id });
    expect(sent.results[0]?.outcome).toBe('replaced');

    const mine = (await call('audit.list', { filter: { person: 'erin' } })).entries.reverse();
    // fixInGrid makes its workspace through the store, which records it as an import of its own.
    expect(mine.map((e) => e.action)).toEqual([
      'settings',
      'correct',
      'correct',
      'import',
      'fix-in-grid',
      'edit',
      'correct-from-workspace',
    ]);
    const [, failed, correct, , fixInGrid, edit, bulk] = mine;
    expect(failed).toMatchObject({
      donationId: oneByOne,
      details: { outcome: 'failed', changes: { amount: -5 }, error: { code: 'INVALID_DONATION' } },
    });
    expect(correct).toMatchObject({
      donationId: oneByOne,
      details: {
        replacementId: fixed.replacement.id,
        recipientId: s.good[3],
        amount: 300,
        currencyCode: 'USD',
      },
    });
    expect(fixInGrid).toMatchObject({
      workspaceId: workspace.id,
      details: { donationIds: [inBulk], rows: 1 },
    });
    expect(edit?.details.cells).toEqual([
      {
        key: 0,
        row: workspace.rows[0]?.rowNumber,
        column: 'Recipient ID',
        from: s.unknownCause,
        to: s.good[4],
      },
    ]);
    expect(bulk).toMatchObject({
      workspaceId: workspace.id,
      details: {
        results: [{ declinedId: inBulk, outcome: 'replaced', replacementId: sent.results[0]?.replacementId }],
      },
    });
    expect(
      (await call('audit.list', { filter: { donationId: oneByOne } })).entries.map((e) => e.action),
    ).toEqual(['correct', 'correct']);

    // A single donation from the form, sent twice (the second answers the same donation), and the
    // corrections workspace deleted.
    const form = {
      clientRef: randomUUID(),
      form: { fields: { recipientId: s.good[0]!, amount: '50.00', currencyCode: 'USD' }, metadata: [] },
    };
    const single = await call('donations.create', form);
    expect((await call('donations.create', form)).created).toBe(false);
    await call('workspace.delete', { id: workspace.id });
    const latest = (await call('audit.list', { filter: { person: 'erin' }, limit: 2 })).entries;
    expect(latest).toMatchObject([
      { action: 'delete-workspace', workspaceId: workspace.id, details: { name: made.name } },
      {
        action: 'single-donation',
        donationId: single.donation.id,
        details: { outcome: 'created', amount: 5000, currencyCode: 'USD', recipientId: s.good[0] },
      },
    ]);
    expect((await call('audit.list', { filter: { donationId: single.donation.id } })).total).toBe(1);
  }, 60_000);

  it('records an upload the service refused, with the reason, and exports to CSV with cells neutralised', async () => {
    // A name a spreadsheet would take for a formula: neutralised in the export.
    person = '@dan';
    const created = await call('workspace.create', {
      name: 'Formula',
      source: {
        fileName: 'formula.xlsx',
        format: 'xlsx',
        sheet: 'S',
        headerRow: 1,
        headerRowCount: 1,
        totalsRow: null,
        skippedBlankRows: 0,
        warnings: [],
      },
      headers: HEADERS,
      rows: [{ key: 1, rowNumber: 2, cells: ['', 'not money', 'USD', '=HYPERLINK("x")'] }],
      mapping: null,
    });
    const refused = await call('upload.start', { workspaceId: created.id }).catch((e: DeskFailure) => e);
    expect(refused).toBeInstanceOf(DeskFailure);
    const [failure] = (await call('audit.list', { filter: { person: '@dan', workspaceId: created.id } }))
      .entries;
    expect(failure).toMatchObject({
      action: 'upload',
      details: { outcome: 'failed', error: { code: (refused as DeskFailure).code } },
    });

    const exported = await call('audit.export', { filter: { person: '@dan' }, format: 'csv' });
    const csv = Buffer.from(exported.base64, 'base64').toString('utf8');
    expect(exported.entries).toBe(2);
    expect(csv).toContain(",'@dan,FINANCE-PC-7,");
    expect(csv).not.toMatch(/(^|,)@dan/m);
  }, 60_000);

  it('records the announced maintenance dates as a setting, and nothing for a save that changes nothing', async () => {
    person = 'greta';
    await call('calendar.save', { dates: ['2026-12-05'] });
    await call('calendar.save', { dates: ['2026-12-05'] });
    const entries = (await call('audit.list', { filter: { person: 'greta' } })).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'settings',
      details: { changes: [{ setting: 'maintenanceDates', from: '', to: '2026-12-05' }] },
    });
  });
});
