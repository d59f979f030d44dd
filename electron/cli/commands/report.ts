import { resolve } from 'node:path';
import * as XLSX from 'xlsx';
import { channels } from '../../../shared/contract';
import type { MonthReport, ReportLine } from '../../../shared/contract/reconcileChannels';
import { neutraliseCell } from '../../../shared/export/neutraliseCell';
import { DeskFailure } from '../../../shared/result';
import { writeFileAtomic } from '../../services/storage/atomicFile';
import { EXIT, commandArgs, registerCommand } from '../main';

const USAGE = `donation-desk report --month YYYY-MM [--out FILE.xlsx] [--cached] [--json]

  --month YYYY-MM   the uploads made in this UTC month
  --out FILE.xlsx   also write the report as a spreadsheet (sheets Summary and Uploads)
  --cached          report from what was last read, without asking the service first
  --json            print the report as JSON

Per currency, in minor units: submitted, pending (ACCEPTED), in progress, paid, cleared, declined
(resolved and open) and the corrections sent; the month reconciles when submitted equals the sum.
Exit codes: 0 reconciles; 1 does not reconcile; 2 the arguments cannot be used; 3 the service could
not be reached or refused access.`;

const SERVICE_CODES = new Set([
  'NETWORK',
  'AUTH_FAILED',
  'SERVICE_UNAVAILABLE',
  'BAD_RESPONSE',
  'NOT_CONFIGURED',
]);

const BUCKETS: Array<[Exclude<keyof ReportLine, 'currencyCode' | 'reconciled'>, string]> = [
  ['submitted', 'Submitted'],
  ['pending', 'Pending'],
  ['inProgress', 'In progress'],
  ['paid', 'Paid'],
  ['cleared', 'Cleared'],
  ['declinedResolved', 'Declined, resolved'],
  ['declinedOpen', 'Declined, open'],
  ['replacements', 'Corrections sent'],
  ['singles', 'Single donations'],
];

async function writeWorkbook(path: string, report: MonthReport): Promise<void> {
  const t = (v: string): string => neutraliseCell(v);
  const summary: Array<Array<string | number>> = [
    [
      'Currency',
      ...BUCKETS.flatMap(([, label]) => [`${label} (count)`, `${label} (minor units)`]),
      'Reconciled',
    ],
    ...report.lines.map((l) => [
      t(l.currencyCode),
      ...BUCKETS.flatMap(([key]) => [l[key].count, l[key].amount]),
      l.reconciled ? 'yes' : 'no',
    ]),
  ];
  const uploads: Array<Array<string | number>> = [
    [
      'Upload',
      'Workspace',
      'Created',
      'Bulks',
      'Submitted',
      'Accepted',
      'Declined',
      'Pending',
      'Declined open',
      'Reconciled',
      'Notes',
    ],
    ...report.uploads.map((u) => {
      const money = (list: typeof u.submitted): string =>
        list.map((m) => `${m.count} × ${m.currencyCode} ${m.amount}`).join('; ');
      return [
        t(u.uploadId),
        t(u.workspaceName),
        t(u.createdAt),
        t(u.bulkIds.join(', ')),
        t(money(u.submitted)),
        t(money(u.accepted)),
        t(money(u.declined)),
        t(money(u.pending)),
        u.declinedOpen,
        u.reconciled ? 'yes' : 'no',
        t(u.notes.join(' ')),
      ];
    }),
  ];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(summary), 'Summary');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(uploads), 'Uploads');
  await writeFileAtomic(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
}

registerCommand('report', {
  summary: 'The month-end report of the uploads of a month, with control totals per currency.',
  usage: USAGE,
  async run(ctx) {
    const parsed = commandArgs(
      ctx,
      { month: { type: 'string' }, out: { type: 'string' }, cached: { type: 'boolean' } },
      false,
    );
    const { values } = parsed;
    const request = channels['donations.report'].request.safeParse({
      month: values.month ?? '',
      refresh: values.cached !== true,
    });
    if (!request.success) {
      ctx.io.err(`--month: give the month as YYYY-MM, e.g. --month 2026-11.`);
      return EXIT.usage;
    }
    if (values.out !== undefined && !values.out.toLowerCase().endsWith('.xlsx')) {
      ctx.io.err('--out must name an .xlsx file.');
      return EXIT.usage;
    }
    const desk = await ctx.runtime();
    let report: MonthReport;
    try {
      report = await desk.services['donations.report'](request.data, { transport: 'cli' });
    } catch (e) {
      if (e instanceof DeskFailure) {
        ctx.io.err(e.message);
        return SERVICE_CODES.has(e.code) ? EXIT.service : EXIT.usage;
      }
      throw e;
    }
    if (values.out !== undefined) {
      const path = resolve(values.out);
      await writeWorkbook(path, report);
      if (!ctx.json) ctx.io.err(`Wrote the report to ${path}`);
    }
    if (ctx.json) ctx.io.out(JSON.stringify(report, null, 2));
    else {
      ctx.io.out(`Month ${report.month} (${report.environment}): ${report.uploads.length} upload(s)`);
      for (const l of report.lines) {
        ctx.io.out(`  ${l.currencyCode} (minor units)${l.reconciled ? '' : '  DOES NOT RECONCILE'}`);
        for (const [key, label] of BUCKETS) {
          ctx.io.out(
            `    ${label.padEnd(20)} ${String(l[key].count).padStart(7)}  ${String(l[key].amount).padStart(14)}`,
          );
        }
      }
      for (const u of report.uploads) {
        if (!u.reconciled) ctx.io.out(`  Upload ${u.uploadId} (${u.workspaceName}): ${u.notes.join(' ')}`);
      }
      ctx.io.out(report.reconciled ? 'The month reconciles.' : 'The month does not reconcile.');
    }
    return report.reconciled ? EXIT.ok : EXIT.problems;
  },
});
