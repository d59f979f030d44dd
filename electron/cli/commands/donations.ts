import { resolve } from 'node:path';
import * as XLSX from 'xlsx';
import type { EventName, EventPayload } from '../../../shared/contract';
import { donationStatusSchema, type DonationView } from '../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../shared/amounts';
import { neutraliseCell } from '../../../shared/export/neutraliseCell';
import { codeWord, count, donationStatusWord, withCode } from '../../../shared/i18n';
import { DeskFailure } from '../../../shared/result';
import { writeFileAtomic } from '../../services/storage/atomicFile';
import { EXIT, exitCodeFor } from '../exitCodes';
import { boundHeapGrowth } from '../heapGrowth';
import { isMaintenance, maintenanceWords } from '../maintenanceWords';
import { commandArgs, registerCommand } from '../main';

const USAGE = `donation-desk donations [--bulk ID]... [--status STATUS] [--page-size N] [--out FILE.xlsx] [--json]

  --bulk ID         a bulk intent id (repeatable); default: every bulk in this computer's upload ledger
                    for the chosen environment
  --status STATUS   only ACCEPTED, INITIATED, IN_PROGRESS, PAID, CLEARED or DECLINED
  --page-size N     donations asked for per page (the service may send fewer); every page is read
  --out FILE.xlsx   also write the list as a spreadsheet (cells that could run as formulas are made text)
  --json            print {donations, pages, lastRefreshAt} as JSON

Reads every page from the service (and each donation sent one by one that is not yet final),
remembers each donation's states in the app's data folder, and ties each one to its workspace row.
The list shows states and decline reasons in words with the service's code beside each reason, and
amounts in their currency; --json and the xlsx keep the codes and amounts in minor units.
Exit codes: 0 listed; 2 the arguments cannot be used; 3 the service could not be reached or refused access.`;

/** Donations read from the database per step while writing the list out. */
const PAGE = 1_000;

const COLUMNS = [
  'Donation id',
  'State',
  'State in words',
  'Status last updated',
  'Recipient',
  'Currency',
  'Amount (minor units)',
  'Donor',
  'Payable payment type',
  'Receipt id',
  'Bulk id',
  'Workspace',
  'Row key',
  'Spreadsheet row',
  'Errors',
  'Metadata',
  'History',
];

/** Each reason in plain words with the service's code beside it (what a person and a script both need). */
function errorsText(d: DonationView): string {
  return d.errors
    .map((e) => {
      const code = e.code || e.status;
      return `${withCode(codeWord(code), code)}${e.detail ? ` — ${e.detail}` : ''}${e.pointer ? ` (${e.pointer})` : ''}`;
    })
    .join('; ');
}

function sheetRow(d: DonationView): Array<string | number> {
  const text = (v: string | null): string => neutraliseCell(v ?? '');
  return [
    text(d.id),
    text(d.state),
    text(donationStatusWord(d.state)),
    text(d.statusLastUpdated),
    text(d.recipientId),
    text(d.currencyCode),
    d.amount,
    text(d.donorName),
    text(d.payablePaymentType),
    text(d.receiptId),
    text(d.bulkId),
    text(d.row?.workspaceId ?? null),
    d.row ? d.row.rowKey : '',
    d.row?.rowNumber ?? '',
    text(errorsText(d)),
    text(
      Object.entries(d.metadata)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    ),
    text(d.history.map((h) => `${h.state} ${h.seenAt}`).join('; ')),
  ];
}

registerCommand('donations', {
  summary: 'List the donations of the uploads (every page), with their states and source rows.',
  usage: USAGE,
  async run(ctx) {
    const parsed = commandArgs(
      ctx,
      {
        bulk: { type: 'string', multiple: true },
        status: { type: 'string' },
        'page-size': { type: 'string' },
        out: { type: 'string' },
      },
      false,
    );
    const { values } = parsed;
    const status =
      values.status === undefined ? undefined : donationStatusSchema.safeParse(values.status.toUpperCase());
    if (status && !status.success) {
      ctx.io.err(`Unknown status "${values.status}": use ${donationStatusSchema.options.join(', ')}.`);
      return EXIT.usage;
    }
    const pageSize = values['page-size'] === undefined ? undefined : Number(values['page-size']);
    if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) {
      ctx.io.err('--page-size must be a whole number from 1 to 1000.');
      return EXIT.usage;
    }
    if (values.out !== undefined && !values.out.toLowerCase().endsWith('.xlsx')) {
      ctx.io.err('--out must name an .xlsx file.');
      return EXIT.usage;
    }
    // A refresh reads every donation still open: its garbage is collected early (see heapGrowth).
    boundHeapGrowth();
    const desk = await ctx.runtime();
    // Progress goes to stderr so stdout stays clean for --json.
    const stop = desk.events.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
      if (name !== 'job.progress') return;
      const p = payload as EventPayload<'job.progress'>;
      if (p.kind === 'donations' && !ctx.json) ctx.io.err(`  ${p.stage}: ${p.message ?? `${p.done} read`}`);
    });
    const filter = {
      ...(values.bulk ? { bulkIds: values.bulk } : {}),
      ...(status?.success ? { status: status.data } : {}),
    };
    let listed;
    try {
      // Read from the service and stored; only the total comes back, the list is then read from
      // the database page by page and written out as it comes (memory stays flat at any size).
      listed = await desk.services['donations.list'](
        { ...filter, ...(pageSize !== undefined ? { pageSize } : {}), limit: 0 },
        { transport: 'cli' },
      );
    } catch (e) {
      if (e instanceof DeskFailure) {
        ctx.io.err(isMaintenance(e) ? maintenanceWords(e, 'refresh') : e.message);
        return exitCodeFor('service', e.code);
      }
      throw e;
    } finally {
      stop();
    }
    const sheet: Array<Array<string | number>> | null = values.out !== undefined ? [COLUMNS] : null;
    const stateWidth = Math.max(...donationStatusSchema.options.map((s) => donationStatusWord(s).length));
    if (ctx.json) ctx.io.out('{\n  "donations": [');
    let written = 0;
    let after: { firstSeenAt: string; seq: number } | undefined;
    for (;;) {
      const page = await desk.services['donations.list'](
        { ...filter, cached: true, limit: PAGE, ...(after ? { after } : {}) },
        { transport: 'cli' },
      );
      for (const d of page.donations) {
        if (sheet) sheet.push(sheetRow(d));
        if (ctx.json) {
          ctx.io.out(`${written > 0 ? ',' : ''}    ${JSON.stringify(d)}`);
        } else {
          const row = d.row
            ? `row ${d.row.rowNumber ?? `key ${d.row.rowKey}`}`
            : d.bulkId
              ? 'no row'
              : 'sent one by one';
          const errors = d.errors.length ? `  ${errorsText(d)}` : '';
          ctx.io.out(
            `${d.id}  ${donationStatusWord(d.state).padEnd(stateWidth)}  ${formatMinor(d.amount, d.currencyCode).padStart(14)}  ${d.recipientId}  ${row}${errors}`,
          );
        }
        written++;
      }
      await ctx.io.drain?.();
      if (!page.next) break;
      after = page.next;
    }
    if (ctx.json) {
      ctx.io.out(
        `  ],\n  "total": ${written},\n  "lastRefreshAt": ${JSON.stringify(listed.lastRefreshAt)},\n  "pages": ${listed.pages}\n}`,
      );
    } else {
      ctx.io.out(`${count(written, 'donation')}, ${count(listed.pages, 'page')} read.`);
    }
    if (sheet && values.out !== undefined) {
      const path = resolve(values.out);
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheet), 'Donations');
      await writeFileAtomic(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
      if (!ctx.json) ctx.io.err(`Wrote ${count(written, 'donation')} to ${path}`);
    }
    return EXIT.ok;
  },
});
