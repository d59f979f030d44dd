import { randomUUID } from 'node:crypto';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationView, ReportLine } from '../../../shared/contract/reconcileChannels';
import { monthReportWorkbook } from '../../../shared/export/monthReportSheets';
import {
  followUpload,
  openDesk,
  startSandbox,
  uploadGifts,
  type Desk,
  type GiftRow,
  type Sandbox,
} from './harness';

let s: Sandbox;
let desk: Desk;
let bulkId: string;

const MONTH = new Date().toISOString().slice(0, 7);
const zero = { count: 0, amount: 0 };

/** The state figure a listed donation belongs in, worked out here apart from the report's own code. */
function stateFigure(d: DonationView): keyof ReportLine {
  if (d.state === 'ACCEPTED') return 'pending';
  if (d.state === 'INITIATED' || d.state === 'IN_PROGRESS') return 'inProgress';
  if (d.state === 'PAID') return 'paid';
  if (d.state === 'CLEARED') return 'cleared';
  return d.resolution && d.resolution.kind !== 'replacing' ? 'declinedResolved' : 'declinedOpen';
}

const STATE_FIGURES = [
  'pending',
  'inProgress',
  'paid',
  'cleared',
  'declinedResolved',
  'declinedOpen',
] as const;

beforeAll(async () => {
  s = await startSandbox();
  desk = await openDesk(s);
  const gifts: GiftRow[] = [
    { recipient: s.good[0] as string, amount: '10.00', currency: 'USD' },
    { recipient: s.good[1] as string, amount: '20.50', currency: 'USD' },
    { recipient: s.good[2] as string, amount: '7.25', currency: 'EUR' },
    // Declined by the service, then corrected in a bulk file.
    { recipient: s.unknownCause, amount: '12.34', currency: 'USD', employee: 'bulk' },
    // Declined, then corrected one by one with POST /donations.
    { recipient: s.unknownCause, amount: '3.10', currency: 'EUR', employee: 'single' },
    // Declined and left open.
    { recipient: s.notInGoodStanding[0] as string, amount: '9.99', currency: 'USD', employee: 'open' },
  ];
  bulkId = await uploadGifts(s, desk, gifts);
  // Long enough for the service to have declined the three it will not take.
  await s.emu.advance(600);
  await desk.call('donations.list', {});
}, 60_000);

afterAll(async () => {
  await desk.runtime.close();
  await s.close();
});

describe('the month-end report with corrections sent both ways', () => {
  it('counts every donation once in the control total, corrections as an "of which" figure', async () => {
    const listed = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    const byEmployee = (e: string) => listed.donations.find((d) => d.metadata.employee === e);
    const toBulk = byEmployee('bulk');
    const toSingle = byEmployee('single');
    expect([toBulk?.state, toSingle?.state, byEmployee('open')?.state]).toEqual([
      'DECLINED',
      'DECLINED',
      'DECLINED',
    ]);

    // One correction through a corrections workspace sent as a new bulk file…
    const made = await desk.call('donations.fixInGrid', { donationIds: [toBulk!.id] });
    const workspace = await desk.call('workspace.open', { id: made.workspaceId });
    await desk.call('workspace.edit', {
      id: workspace.id,
      baseVersion: workspace.version,
      edits: [
        {
          op: 'set',
          key: workspace.rows[0]!.key,
          column: workspace.headers.indexOf('Recipient ID'),
          value: s.good[3] as string,
        },
      ],
    });
    const started = await desk.call('upload.start', { workspaceId: workspace.id });
    const correctionBulk = await followUpload(s, desk, started.uploadId);
    // …one with POST /donations…
    const single = await desk.call('donations.correct', {
      donationId: toSingle!.id,
      changes: { recipientId: s.good[4] as string },
    });
    // …and one donation from the form, in USD.
    const form = await desk.call('donations.create', {
      clientRef: randomUUID(),
      form: {
        fields: { recipientId: s.good[0] as string, amount: '50.00', currencyCode: 'USD' },
        metadata: [],
      },
    });
    expect(form.created).toBe(true);

    const report = await desk.call('donations.report', { month: MONTH, refresh: true });
    const all = (await desk.call('donations.list', { bulkIds: [], cached: true })).donations;
    const inBulk = all.filter((d) => d.bulkId === correctionBulk);
    expect(inBulk).toHaveLength(1);
    expect(inBulk[0]).toMatchObject({ replaces: toBulk!.id, amount: 1234, currencyCode: 'USD' });

    // Rows of the two uploads: six gifts, then the corrections workspace's one row.
    const usd = report.lines.find((l) => l.currencyCode === 'USD');
    const eur = report.lines.find((l) => l.currencyCode === 'EUR');
    expect(report.lines.map((l) => l.currencyCode)).toEqual(['EUR', 'USD']);
    expect(usd?.submitted).toEqual({ count: 4 + 1, amount: 1000 + 2050 + 1234 + 999 + 1234 });
    expect(eur?.submitted).toEqual({ count: 2, amount: 725 + 310 });
    // Donations made one at a time belong to no upload: the correction in EUR, the form's in USD.
    expect(usd?.sentOneByOne).toEqual({ count: 1, amount: 5000 });
    expect(eur?.sentOneByOne).toEqual({ count: 1, amount: 310 });
    // Each correction once more as "of which", whichever way it went; never added to the sum.
    expect(usd?.replacements).toEqual({ count: 1, amount: 1234 });
    expect(eur?.replacements).toEqual({ count: 1, amount: 310 });
    expect(usd?.singles).toEqual({ count: 1, amount: 5000 });
    expect(eur?.singles).toEqual(zero);
    expect(usd?.declinedResolved).toEqual({ count: 1, amount: 1234 });
    expect(usd?.declinedOpen).toEqual({ count: 1, amount: 999 });
    expect(eur?.declinedResolved).toEqual({ count: 1, amount: 310 });
    expect(eur?.declinedOpen).toEqual(zero);

    // Every state figure, worked out from the listed donations the report stands for.
    const counted = all.filter(
      (d) => d.bulkId === bulkId || d.bulkId === correctionBulk || d.bulkId === null,
    );
    expect(counted.map((d) => d.id).sort()).toEqual(
      [...listed.donations.map((d) => d.id), inBulk[0]!.id, single.replacement.id, form.donation.id].sort(),
    );
    for (const line of [usd, eur]) {
      const expected = Object.fromEntries(STATE_FIGURES.map((f) => [f, { count: 0, amount: 0 }]));
      for (const d of counted.filter((x) => x.currencyCode === line?.currencyCode)) {
        const figure = expected[stateFigure(d)]!;
        figure.count++;
        figure.amount += d.amount;
      }
      expect(Object.fromEntries(STATE_FIGURES.map((f) => [f, line?.[f]]))).toEqual(expected);
      expect(line?.reconciled).toBe(true);
    }

    // Each upload's own control total, with its workspace and date.
    expect(report.uploads).toHaveLength(2);
    const [first, corrections] = report.uploads;
    expect(first).toMatchObject({
      workspaceName: 'Month gifts',
      bulkIds: [bulkId],
      submitted: [
        { currencyCode: 'EUR', count: 2, amount: 1035 },
        { currencyCode: 'USD', count: 4, amount: 5283 },
      ],
      declined: [
        { currencyCode: 'EUR', count: 1, amount: 310 },
        { currencyCode: 'USD', count: 2, amount: 2233 },
      ],
      declinedOpen: 1,
      reconciled: true,
    });
    expect(corrections).toMatchObject({
      uploadId: started.uploadId,
      workspaceName: made.name,
      bulkIds: [correctionBulk],
      submitted: [{ currencyCode: 'USD', count: 1, amount: 1234 }],
      reconciled: true,
    });
    expect(corrections?.createdAt.startsWith(MONTH)).toBe(true);
    expect(report.reconciled).toBe(true);

    // Ten virtual hours on, every donation has reached the end of its life: every figure is known.
    await s.emu.advance(36_000);
    const closed = await desk.call('donations.report', { month: MONTH, refresh: true });
    const line = (code: string) => closed.lines.find((l) => l.currencyCode === code);
    expect(line('USD')).toEqual({
      currencyCode: 'USD',
      submitted: { count: 5, amount: 6517 },
      sentOneByOne: { count: 1, amount: 5000 },
      pending: zero,
      inProgress: zero,
      paid: zero,
      cleared: { count: 4, amount: 1000 + 2050 + 1234 + 5000 },
      declinedResolved: { count: 1, amount: 1234 },
      declinedOpen: { count: 1, amount: 999 },
      replacements: { count: 1, amount: 1234 },
      singles: { count: 1, amount: 5000 },
      reconciled: true,
    });
    expect(line('EUR')).toEqual({
      currencyCode: 'EUR',
      submitted: { count: 2, amount: 1035 },
      sentOneByOne: { count: 1, amount: 310 },
      pending: zero,
      inProgress: zero,
      paid: zero,
      cleared: { count: 2, amount: 725 + 310 },
      declinedResolved: { count: 1, amount: 310 },
      declinedOpen: zero,
      replacements: { count: 1, amount: 310 },
      singles: zero,
      reconciled: true,
    });
    expect(closed.reconciled).toBe(true);
    // A month with nothing in it has nothing to show, and reconciles.
    expect(await desk.call('donations.report', { month: '2001-01' })).toMatchObject({
      uploads: [],
      lines: [],
      reconciled: true,
    });

    // The app's workbook (the CLI writes the same one): the figures and every upload per currency.
    const book = XLSX.read(
      XLSX.write(monthReportWorkbook(XLSX, closed), { type: 'buffer', bookType: 'xlsx' }),
    );
    expect(book.SheetNames).toEqual(['Summary', 'Uploads', 'About']);
    const summary = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Summary as XLSX.WorkSheet);
    expect(summary.map((r) => r.Currency)).toEqual(['EUR', 'USD']);
    expect(summary[1]).toMatchObject({
      'Submitted (count)': 5,
      'Submitted (minor units)': 6517,
      'Sent one by one (count)': 1,
      'Sent one by one (minor units)': 5000,
      'Cleared (minor units)': 9284,
      'Declined, open (minor units)': 999,
      Reconciled: 'yes',
      'Of which corrections (minor units)': 1234,
      'Of which single donations (minor units)': 5000,
    });
    const uploads = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Uploads as XLSX.WorkSheet);
    expect(uploads.map((r) => [r.Workspace, r.Currency, r['Submitted (minor units)']])).toEqual([
      ['Month gifts', 'EUR', 1035],
      ['Month gifts', 'USD', 5283],
      [made.name, 'USD', 1234],
    ]);
    expect(uploads[1]).toMatchObject({
      'Approved for payment or later (minor units)': 3050,
      'Declined (minor units)': 2233,
      'Accepted, not yet decided (minor units)': 0,
      'This currency adds up': 'yes',
      'Upload reconciled': 'yes',
    });
    expect(uploads.map((r) => r['Declined, open (whole upload)'])).toEqual([1, undefined, 0]);
    expect(uploads.every((r) => String(r.Created).startsWith(MONTH))).toBe(true);
  }, 60_000);
});
