import { createHash } from 'node:crypto';
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
    let declined: string | undefined;
    for (let round = 0; round < 60 && !declined; round++) {
      await s.emu.advance(120);
      const listed = await call('donations.list', { bulkIds: [bulkId] });
      declined = listed.donations.find((d) => d.state === 'DECLINED')?.id;
    }
    expect(declined).toBeDefined();
    await call('donations.dismiss', {
      donationId: declined!,
      reason: 'The cause closed; paid by cheque instead',
    });

    person = 'carla';
    await call('settings.save', {
      environment: 'sandbox',
      remote: { id: 'sandbox', clientId: 'desk-client', clientSecret: 'never-in-the-trail' },
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
        rows: 4,
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
        rows: 4,
        totals: expect.arrayContaining([
          { currencyCode: 'USD', count: 3, amount: 1200 + 2000 + 500 },
          { currencyCode: 'EUR', count: 1, amount: 750 },
        ]),
        files: [expect.objectContaining({ sha256: fileHash, rowNumbers: [2, 3, 4, 5] })],
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

  it('records an upload the service refused, with the reason, and exports to CSV with cells neutralised', async () => {
    // A name a spreadsheet would take for a formula: neutralised in the export.
    person = '@dan';
    // Switch back so uploads go to the Offline sandbox again.
    await call('settings.save', { environment: 'offline' });
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
    expect(exported.entries).toBe(3);
    expect(csv).toContain(",'@dan,FINANCE-PC-7,");
    expect(csv).not.toMatch(/(^|,)@dan/m);
  }, 60_000);
});
