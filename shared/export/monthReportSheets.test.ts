import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import type { MonthReport, UploadControl } from '../contract/reconcileChannels';
import { monthReportSheets, monthReportWorkbook, uploadCurrencyRows } from './monthReportSheets';

const money = (currencyCode: string, count: number, amount: number) => ({ currencyCode, count, amount });
const zero = { count: 0, amount: 0 };

const upload = (over: Partial<UploadControl> = {}): UploadControl => ({
  uploadId: 'u1',
  workspaceId: 'w1',
  workspaceName: '=HYPERLINK("http://x","November")',
  createdAt: '2026-11-05T10:00:00.000Z',
  bulkIds: ['b1', 'b2'],
  submitted: [money('EUR', 2, 1035), money('USD', 4, 5283)],
  accepted: [money('EUR', 1, 725), money('USD', 2, 3050)],
  declined: [money('EUR', 1, 310), money('USD', 1, 1234)],
  pending: [money('USD', 1, 999)],
  declinedOpen: 1,
  notReadYet: false,
  reconciled: true,
  notes: [],
  ...over,
});

const report: MonthReport = {
  month: '2026-11',
  environment: 'offline',
  generatedAt: '2026-12-01T08:00:00.000Z',
  lastRefreshAt: null,
  uploads: [
    upload(),
    upload({
      uploadId: 'u2',
      workspaceName: 'Partial',
      submitted: [],
      accepted: [],
      declined: [],
      pending: [],
      declinedOpen: 0,
      reconciled: false,
      notes: ['+ Part 1 ended in ERROR.'],
    }),
  ],
  lines: [
    {
      currencyCode: 'USD',
      submitted: { count: 4, amount: 5283 },
      sentOneByOne: { count: 1, amount: 5000 },
      pending: { count: 2, amount: 5999 },
      inProgress: zero,
      paid: { count: 2, amount: 3050 },
      cleared: zero,
      declinedResolved: { count: 1, amount: 1234 },
      declinedOpen: zero,
      replacements: zero,
      singles: { count: 1, amount: 5000 },
      reconciled: true,
    },
  ],
  reconciled: false,
};

describe('uploadCurrencyRows', () => {
  it('splits an upload by currency and checks each one', () => {
    expect(uploadCurrencyRows(upload())).toEqual([
      {
        currencyCode: 'EUR',
        submitted: { count: 2, amount: 1035 },
        accepted: { count: 1, amount: 725 },
        declined: { count: 1, amount: 310 },
        pending: zero,
        addsUp: true,
      },
      {
        currencyCode: 'USD',
        submitted: { count: 4, amount: 5283 },
        accepted: { count: 2, amount: 3050 },
        declined: { count: 1, amount: 1234 },
        pending: { count: 1, amount: 999 },
        addsUp: true,
      },
    ]);
    // One cent short in USD: that currency does not add up, EUR still does.
    const short = uploadCurrencyRows(upload({ pending: [money('USD', 1, 998)] }));
    expect(short.map((r) => [r.currencyCode, r.addsUp])).toEqual([
      ['EUR', true],
      ['USD', false],
    ]);
  });
});

describe('monthReportSheets', () => {
  it('writes Summary, Uploads and About with numbers as numbers and text made safe', () => {
    const [summary, uploads, about] = monthReportSheets(report);
    expect([summary?.name, uploads?.name, about?.name]).toEqual(['Summary', 'Uploads', 'About']);
    const header = summary?.rows[0] as string[];
    const usd = summary?.rows[1] ?? [];
    const at = (label: string) => usd[header.indexOf(label)];
    expect(at('Submitted (minor units)')).toBe(5283);
    expect(at('Sent one by one (count)')).toBe(1);
    expect(at('Accepted, not yet decided (minor units)')).toBe(5999);
    expect(at('Reconciled')).toBe('yes');
    expect(at('Of which single donations (minor units)')).toBe(5000);
    // The control figures come before the flag, the "of which" figures after it.
    expect(header.indexOf('Reconciled')).toBeLessThan(header.indexOf('Of which corrections (count)'));
    expect(header.indexOf('Declined, open (minor units)')).toBeLessThan(header.indexOf('Reconciled'));

    const rows = uploads?.rows ?? [];
    const uh = rows[0] as string[];
    const col = (row: number, label: string) => rows[row]?.[uh.indexOf(label)];
    expect(rows).toHaveLength(1 + 2 + 1);
    expect(col(1, 'Workspace')).toBe(`'=HYPERLINK("http://x","November")`);
    expect([col(1, 'Currency'), col(2, 'Currency')]).toEqual(['EUR', 'USD']);
    expect(col(2, 'Accepted, not yet decided (minor units)')).toBe(999);
    expect(col(2, 'Approved for payment or later (minor units)')).toBe(3050);
    expect(col(2, 'Bulks')).toBe('b1, b2');
    expect(col(1, 'Sent from another computer by')).toBeNull();
    // Whole-upload figures once per upload, so summing the column stays right.
    expect([col(1, 'Declined, open (whole upload)'), col(2, 'Declined, open (whole upload)')]).toEqual([
      1,
      null,
    ]);
    // An upload without a figure keeps its row, its note made safe.
    expect(col(3, 'Workspace')).toBe('Partial');
    expect(col(3, 'Currency')).toBeNull();
    expect(col(3, 'Upload reconciled')).toBe('no');
    expect(col(3, 'Notes')).toBe(`'+ Part 1 ended in ERROR.`);

    const facts = new Map((about?.rows ?? []).map((r) => [r[0], r[1]]));
    expect(facts.get('Month-end report')).toBe('2026-11');
    expect(facts.get('The month reconciles')).toBe('no');
    expect(facts.get('Donations last read from the service (UTC)')).toBe('never');
    expect(facts.get('USD')).toBe('2 decimal place(s): divide by 100; 12345 is 123.45');
    for (const sheet of [summary, uploads, about]) {
      for (const r of sheet?.rows ?? []) {
        for (const c of r) if (typeof c === 'string') expect(c).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
  });

  it('makes a workbook SheetJS reads back as written', () => {
    const bytes = XLSX.write(monthReportWorkbook(XLSX, report), { type: 'buffer', bookType: 'xlsx' });
    const book = XLSX.read(bytes);
    const [line] = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Summary as XLSX.WorkSheet);
    expect(line).toMatchObject({ Currency: 'USD', 'Submitted (count)': 4, 'Paid (minor units)': 3050 });
  });
});

describe('a colleague’s upload in the month-end workbook', () => {
  it('names who sent it and from which computer (team mode)', () => {
    const [, uploads] = monthReportSheets({
      ...report,
      uploads: [upload({ sentElsewhere: { by: 'alice', computer: 'alice-laptop' } })],
    });
    const rows = uploads?.rows ?? [];
    const at = (label: string) => rows[1]?.[(rows[0] as string[]).indexOf(label)];
    expect(at('Sent from another computer by')).toBe('alice (alice-laptop)');
  });
});
