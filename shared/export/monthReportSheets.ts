import type * as XLSX from 'xlsx';
import { currencyDigits, minorToMajorString } from '../amounts';
import type { MonthReport, ReportLine, UploadControl } from '../contract/reconcileChannels';
import { neutraliseCell } from './neutraliseCell';

type LineFigure = Exclude<keyof ReportLine, 'currencyCode' | 'reconciled'>;

export interface FigureLabel<K extends string> {
  key: K;
  label: string;
  /** What the figure holds, in plain words (the report's legend and the workbook's About sheet). */
  meaning: string;
}

/**
 * The figures of a month's currency line that make up its control total, in the order shown: what
 * was sent, then every state a donation can be in now. One set of labels for the screen, the printed
 * page, the CLI and the workbook.
 */
export const CONTROL_FIGURES: ReadonlyArray<FigureLabel<LineFigure>> = [
  {
    key: 'submitted',
    label: 'Submitted',
    meaning:
      'Rows the uploads of the month had taken by the service, from the upload ledger (corrections sent as a bulk file are an upload of their own and count here).',
  },
  {
    key: 'sentOneByOne',
    label: 'Sent one by one',
    meaning:
      'Donations created one at a time during the month: corrections sent one by one and single donations from the form.',
  },
  {
    key: 'pending',
    label: 'Accepted, not yet decided',
    meaning:
      'The service took the donation and has not yet approved it for payment or declined it (ACCEPTED).',
  },
  {
    key: 'inProgress',
    label: 'In progress',
    meaning: 'Approved for payment, or being paid (INITIATED, IN_PROGRESS).',
  },
  { key: 'paid', label: 'Paid', meaning: 'Paid to the cause, not yet cleared (PAID).' },
  { key: 'cleared', label: 'Cleared', meaning: 'The payment has cleared the cause’s account (CLEARED).' },
  {
    key: 'declinedResolved',
    label: 'Declined, resolved',
    meaning: 'Declined, and since replaced by a correction or dismissed with a reason (DECLINED).',
  },
  {
    key: 'declinedOpen',
    label: 'Declined, open',
    meaning: 'Declined, neither replaced nor dismissed yet (DECLINED).',
  },
];

/** Figures that only say what part of the control total something is: never added to it. */
export const INFORMATION_FIGURES: ReadonlyArray<FigureLabel<LineFigure>> = [
  {
    key: 'replacements',
    label: 'Of which corrections',
    meaning:
      'Donations counted above that correct a declined donation, sent as a bulk file or one by one. Already in Submitted or Sent one by one; not added again.',
  },
  {
    key: 'singles',
    label: 'Of which single donations',
    meaning: 'Single donations from the form. Already in Sent one by one; not added again.',
  },
];

export const CONTROL_TOTAL_RULE =
  'Submitted + Sent one by one = Accepted, not yet decided + In progress + Paid + Cleared + Declined, resolved + Declined, open, in count and in amount, for each currency.';

type UploadFigure = 'submitted' | 'accepted' | 'declined' | 'pending';

/** The columns of an upload's control total, in the words of the month's lines. */
export const UPLOAD_FIGURES: ReadonlyArray<FigureLabel<UploadFigure>> = [
  { key: 'submitted', label: 'Submitted', meaning: 'Rows the service took, from the upload ledger.' },
  {
    key: 'accepted',
    label: 'Approved for payment or later',
    meaning: 'Approved for payment and not declined: in progress, paid or cleared (INITIATED and later).',
  },
  { key: 'declined', label: 'Declined', meaning: 'Declined, resolved or open (DECLINED).' },
  {
    key: 'pending',
    label: 'Accepted, not yet decided',
    meaning: 'Not yet approved for payment or declined (ACCEPTED).',
  },
];

export const UPLOAD_CONTROL_RULE =
  'For each upload: Submitted = Approved for payment or later + Declined + Accepted, not yet decided, in count and in amount, for each currency.';

type CountAmount = { count: number; amount: number };

/** One currency of one upload's control total. */
export interface UploadCurrencyRow {
  currencyCode: string;
  submitted: CountAmount;
  accepted: CountAmount;
  declined: CountAmount;
  pending: CountAmount;
  /** Submitted = initiated or later + declined + not yet decided, in count and minor units. */
  addsUp: boolean;
}

/** An upload's control total split by currency (every currency any of its figures has). */
export function uploadCurrencyRows(upload: UploadControl): UploadCurrencyRow[] {
  const codes = new Set(UPLOAD_FIGURES.flatMap(({ key }) => upload[key].map((t) => t.currencyCode)));
  return [...codes].sort().map((currencyCode) => {
    const of = (key: UploadFigure): CountAmount => {
      const t = upload[key].find((m) => m.currencyCode === currencyCode);
      return { count: t?.count ?? 0, amount: t?.amount ?? 0 };
    };
    const row = {
      currencyCode,
      submitted: of('submitted'),
      accepted: of('accepted'),
      declined: of('declined'),
      pending: of('pending'),
    };
    const parts = [row.accepted, row.declined, row.pending];
    const count = parts.reduce((n, p) => n + p.count, 0);
    const amount = parts.reduce((n, p) => n + p.amount, 0);
    return { ...row, addsUp: count === row.submitted.count && amount === row.submitted.amount };
  });
}

export type SheetCell = string | number | null;
export interface ReportSheet {
  name: string;
  rows: SheetCell[][];
}

const yesNo = (v: boolean): string => (v ? 'yes' : 'no');

/**
 * The month-end report as the sheets of a workbook: Summary (one row per currency), Uploads (one
 * row per upload and currency, with the upload's workspace and date) and About (what the figures
 * mean). Counts and amounts are numbers, amounts in integer minor units; every text cell is
 * neutralised so nothing in it runs as a formula. The app and the CLI both write these sheets.
 */
export function monthReportSheets(report: MonthReport): ReportSheet[] {
  const pair = (label: string): string[] => [`${label} (count)`, `${label} (minor units)`];
  const summary: SheetCell[][] = [
    [
      'Currency',
      ...CONTROL_FIGURES.flatMap(({ label }) => pair(label)),
      'Reconciled',
      ...INFORMATION_FIGURES.flatMap(({ label }) => pair(label)),
    ],
    ...report.lines.map((l) => [
      l.currencyCode,
      ...CONTROL_FIGURES.flatMap(({ key }) => [l[key].count, l[key].amount]),
      yesNo(l.reconciled),
      ...INFORMATION_FIGURES.flatMap(({ key }) => [l[key].count, l[key].amount]),
    ]),
  ];

  const uploads: SheetCell[][] = [
    [
      'Upload',
      'Workspace',
      'Created',
      'Sent from another computer by',
      'Bulks',
      'Currency',
      ...UPLOAD_FIGURES.flatMap(({ label }) => pair(label)),
      'This currency adds up',
      'Upload reconciled',
      'Declined, open (whole upload)',
      'Notes',
    ],
  ];
  for (const u of report.uploads) {
    const rows = uploadCurrencyRows(u);
    // An upload with no figure at all still gets its row, so it is not lost from the list.
    const lines: Array<UploadCurrencyRow | null> = rows.length > 0 ? rows : [null];
    lines.forEach((row, i) => {
      uploads.push([
        u.uploadId,
        u.workspaceName,
        u.createdAt,
        // Team mode: a colleague's upload (its rows are on their computer); empty for this computer's.
        u.sentElsewhere
          ? `${u.sentElsewhere.by}${u.sentElsewhere.computer ? ` (${u.sentElsewhere.computer})` : ''}`
          : null,
        u.bulkIds.join(', '),
        row ? row.currencyCode : null,
        ...UPLOAD_FIGURES.flatMap(({ key }) => (row ? [row[key].count, row[key].amount] : [null, null])),
        row ? yesNo(row.addsUp) : null,
        yesNo(u.reconciled),
        // Whole-upload figures once, on the upload's first row, so a column total stays right.
        i === 0 ? u.declinedOpen : null,
        i === 0 ? u.notes.join(' ') : null,
      ]);
    });
  }

  const currencies = [...new Set(report.lines.map((l) => l.currencyCode))];
  const about: SheetCell[][] = [
    ['Month-end report', report.month],
    ['Environment', report.environment],
    ['Made at (UTC)', report.generatedAt],
    ['Donations last read from the service (UTC)', report.lastRefreshAt ?? 'never'],
    ['The month reconciles', yesNo(report.reconciled)],
    [],
    ['Control total', CONTROL_TOTAL_RULE],
    ['Control total of an upload', UPLOAD_CONTROL_RULE],
    [
      'Amounts',
      'In integer minor units of the currency, so they add up exactly in a spreadsheet. Divide by the figure below to get major units.',
    ],
    ...currencies.map((code) => {
      const digits = currencyDigits(code) ?? 2;
      return [
        code,
        `${digits} decimal place(s): divide by ${10 ** digits}; 12345 is ${minorToMajorString(12345, code)}`,
      ];
    }),
    [],
    ['Summary column', 'Meaning'],
    ...[...CONTROL_FIGURES, ...INFORMATION_FIGURES].map(({ label, meaning }) => [label, meaning]),
    ['Uploads column', 'Meaning'],
    ...UPLOAD_FIGURES.map(({ label, meaning }) => [label, meaning]),
  ];

  const sheets: ReportSheet[] = [
    { name: 'Summary', rows: summary },
    { name: 'Uploads', rows: uploads },
    { name: 'About', rows: about },
  ];
  // Every text cell, the service's and the workspace's included, is made safe in one place.
  return sheets.map(({ name, rows }) => ({
    name,
    rows: rows.map((r) => r.map((c) => (typeof c === 'string' ? neutraliseCell(c) : c))),
  }));
}

/** The report's sheets as a workbook, with the caller's copy of SheetJS (the window loads it lazily). */
export function monthReportWorkbook(xlsx: Pick<typeof XLSX, 'utils'>, report: MonthReport): XLSX.WorkBook {
  const book = xlsx.utils.book_new();
  for (const sheet of monthReportSheets(report)) {
    xlsx.utils.book_append_sheet(book, xlsx.utils.aoa_to_sheet(sheet.rows), sheet.name);
  }
  return book;
}
