import { resolve } from 'node:path';
import * as XLSX from 'xlsx';
import { channels } from '../../../shared/contract';
import type { MonthReport } from '../../../shared/contract/reconcileChannels';
import {
  CONTROL_FIGURES,
  CONTROL_TOTAL_RULE,
  INFORMATION_FIGURES,
  monthReportWorkbook,
} from '../../../shared/export/monthReportSheets';
import { formatMinor } from '../../../shared/amounts';
import { count } from '../../../shared/i18n';
import { DeskFailure } from '../../../shared/result';
import { writeFileAtomic } from '../../services/storage/atomicFile';
import { EXIT, exitCodeFor } from '../exitCodes';
import { boundHeapGrowth } from '../heapGrowth';
import { isMaintenance, maintenanceWords } from '../maintenanceWords';
import { commandArgs, registerCommand } from '../main';

const USAGE = `donation-desk report --month YYYY-MM [--out FILE.xlsx] [--cached] [--json]

  --month YYYY-MM   the uploads made and the donations sent one by one in this UTC month
  --out FILE.xlsx   also write the report as a spreadsheet (sheets Summary, Uploads and About)
  --cached          report from what was last read, without asking the service first
  --json            print the report as JSON

Per currency: submitted (rows of the month's uploads), sent one by one (corrections and single
donations), then accepted but not yet decided, in progress, paid, cleared and declined (resolved and
open), each as a count and an amount in the currency (--json and the xlsx give minor units); corrections and single donations are shown again as "of which"
figures, never added twice. The month reconciles when, for every currency, submitted + sent one by
one equals the sum of the states, and every upload's own control total adds up.
Exit codes: 0 reconciles; 1 does not reconcile; 2 the arguments cannot be used; 3 the service could
not be reached or refused access.`;

async function writeWorkbook(path: string, report: MonthReport): Promise<void> {
  const book = monthReportWorkbook(XLSX, report);
  await writeFileAtomic(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
}

registerCommand('report', {
  summary:
    "The month-end report: a month's uploads and donations sent one by one, with control totals per currency.",
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
    // A refresh reads every donation still open: its garbage is collected early (see heapGrowth).
    boundHeapGrowth();
    const desk = await ctx.runtime();
    let report: MonthReport;
    try {
      report = await desk.services['donations.report'](request.data, { transport: 'cli' });
    } catch (e) {
      if (e instanceof DeskFailure) {
        ctx.io.err(isMaintenance(e) ? maintenanceWords(e, 'refresh') : e.message);
        return exitCodeFor('service', e.code);
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
      const oneByOne = report.lines.reduce((n, l) => n + l.sentOneByOne.count, 0);
      ctx.io.out(
        `Month ${report.month} (${report.environment}): ${count(report.uploads.length, 'upload')} and ${count(oneByOne, 'donation')} sent one by one`,
      );
      const width = Math.max(...[...CONTROL_FIGURES, ...INFORMATION_FIGURES].map((f) => f.label.length));
      for (const l of report.lines) {
        const figure = (label: string, v: { count: number; amount: number }): string =>
          `    ${label.padEnd(width)} ${String(v.count).padStart(7)}  ${formatMinor(v.amount, l.currencyCode).padStart(16)}`;
        ctx.io.out(`  ${l.currencyCode}${l.reconciled ? '  reconciled' : '  does not add up'}`);
        for (const { key, label } of CONTROL_FIGURES) ctx.io.out(figure(label, l[key]));
        for (const { key, label } of INFORMATION_FIGURES) ctx.io.out(figure(label, l[key]));
      }
      if (report.lines.length > 0) ctx.io.out(`  ${CONTROL_TOTAL_RULE}`);
      for (const u of report.uploads) {
        if (!u.reconciled) ctx.io.out(`  Upload “${u.workspaceName}” (${u.uploadId}): ${u.notes.join(' ')}`);
      }
      ctx.io.out(report.reconciled ? 'The month reconciles.' : 'The month does not reconcile.');
    }
    return report.reconciled ? EXIT.ok : EXIT.problems;
  },
});
