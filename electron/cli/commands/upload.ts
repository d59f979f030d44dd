import { basename, resolve } from 'node:path';
import * as XLSX from 'xlsx';
import type { ChannelInput, ChannelName, ChannelResponse } from '../../../shared/contract';
import type { IntentView, UploadErrors, UploadView } from '../../../shared/contract/uploadChannels';
import { neutraliseCell } from '../../../shared/export/neutraliseCell';
import { DEFAULT_REFERENCE_KEY } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import type { DeskRuntime } from '../../services';
import { writeFileAtomic } from '../../services/storage/atomicFile';
import { EXIT, exitCodeFor } from '../exitCodes';
import { isMaintenance, maintenanceHold, maintenanceWords } from '../maintenanceWords';
import { commandArgs, registerCommand, type CliContext } from '../main';
import { readWorkspaceInput } from '../stream/workspaceInput';
import { count } from '../../../shared/i18n';
import { workspaceNameFor } from '../../../shared/spreadsheet/sourceNames';

/*
 * Exit codes of upload, status, errors and resume: 0 done (PROCESSED, or sent when not waiting);
 * 1 problems (invalid rows, rows already sent, an upload that ended in ERROR or was stopped, errors
 * listed); 2 the file, the mapping or the arguments cannot be used; 3 the service (or the team
 * database) could not be reached or refused; 4 team mode: waiting for an approver, nothing sent yet.
 */

async function call<C extends ChannelName>(
  desk: DeskRuntime,
  channel: C,
  input: ChannelInput<C>,
): Promise<ChannelResponse<C>> {
  const handler = desk.services[channel] as (
    i: ChannelInput<C>,
    c: { transport: 'cli' },
  ) => Promise<ChannelResponse<C>> | ChannelResponse<C>;
  return handler(input, { transport: 'cli' });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function waitStep(ctx: CliContext): number {
  return Number(ctx.io.env.DONATION_DESK_POLL_MIN_MS) || 3_000;
}

/**
 * How long a wait sleeps between its own looks while every upload it waits for waits only for a
 * colleague's decision (nothing at the service to follow): DONATION_DESK_APPROVALS_POLL_MS when set,
 * as the app's approvals check, else the follow's growing `delay`. The team's news ends it sooner.
 */
export function decisionLook(ctx: CliContext, delay: number): number {
  return Number(ctx.io.env.DONATION_DESK_APPROVALS_POLL_MS) || delay;
}

/**
 * Sleeps `ms`, or less when the team database tells of news first (a decision, a send, a colleague's
 * bulk): then what can go now goes (one pass of resume) and the answer is true. Working alone, or
 * when the news cannot be heard, it is the plain sleep it always was.
 */
export async function sleepOrNews(desk: DeskRuntime, ms: number): Promise<boolean> {
  await desk.news.listen().catch(() => undefined);
  if (!desk.news.listening()) {
    await sleep(ms);
    return false;
  }
  const news = await desk.news.next(ms);
  if (!news) return false;
  await desk.resumeUploads().catch(() => undefined);
  return true;
}

const FINAL = new Set(['PROCESSED', 'ERROR', 'abandoned']);

/**
 * Polls every intent of the given uploads (or all) until each has a final state; returns the uploads.
 * Throws MAINTENANCE as soon as the service is in its scheduled maintenance: waiting through it is
 * the app's job (or a later run's), not a command's.
 */
export async function waitForUploads(
  ctx: CliContext,
  desk: DeskRuntime,
  uploadIds: string[] | null,
): Promise<UploadView[]> {
  let delay = waitStep(ctx);
  // Uploads sent to another environment are not resumed from this one: waiting for them would never end.
  const environment = (await call(desk, 'app.info', {})).environment.id;
  for (;;) {
    const uploads = (await call(desk, 'upload.list', {})).filter((u) =>
      uploadIds ? uploadIds.includes(u.uploadId) : u.environment === environment,
    );
    const open = uploads.filter(
      (u) =>
        u.state === 'waiting-approval' ||
        u.state === 'sending' ||
        u.state === 'following' ||
        u.intents.some((i) => i.state === 'ERROR' && i.donations === null),
    );
    if (open.length === 0) return uploads;
    const held = maintenanceHold(desk);
    if (held) throw held;
    for (const upload of open) {
      for (const intent of upload.intents) {
        if (
          intent.serviceId &&
          (!FINAL.has(intent.state) || (intent.state === 'ERROR' && intent.donations === null))
        ) {
          await call(desk, 'upload.refresh', { intentId: intent.intentId }).catch((e: unknown) => {
            if (isMaintenance(e)) throw e;
          });
        }
      }
    }
    // Woken by the team's news: look again soon after, as at the start.
    const decisionsOnly = open.every((u) => u.state === 'waiting-approval');
    const woken = await sleepOrNews(desk, decisionsOnly ? decisionLook(ctx, delay) : delay);
    delay = woken ? waitStep(ctx) : Math.min(60_000, delay * 1.5);
  }
}

function describeIntent(i: IntentView): string {
  const counts = [
    i.counts.accepted !== undefined && `${i.counts.accepted} accepted`,
    i.counts.invalid !== undefined && `${i.counts.invalid} invalid`,
  ]
    .filter(Boolean)
    .join(', ');
  return `  ${i.intentId}  part ${i.part + 1}/${i.parts}  ${i.state.padEnd(10)} ${count(i.rows, 'row')}${counts ? ` (${counts})` : ''}`;
}

export function printUploads(
  ctx: CliContext,
  uploads: UploadView[],
  extra: Record<string, unknown> = {},
): void {
  if (ctx.json) {
    ctx.io.out(
      JSON.stringify(uploads.length === 1 ? { ...uploads[0], ...extra } : { uploads, ...extra }, null, 2),
    );
    return;
  }
  for (const u of uploads) {
    const totals = u.totals.map((t) => `${t.count} × ${t.currencyCode} ${t.amount} (minor units)`).join('; ');
    ctx.io.out(
      `Upload ${u.uploadId} of “${u.workspaceName}”: ${u.state}, ${count(u.rows, 'row')}${totals ? `, ${totals}` : ''}`,
    );
    if (u.approval) ctx.io.out(`  ${approvalWords(u)}`);
    if (u.state === 'stopped' && u.stoppedReason) ctx.io.out(`  Stopped: ${u.stoppedReason}`);
    for (const i of u.intents) ctx.io.out(describeIntent(i));
  }
}

/** Where a team upload's approval stands, in words. */
function approvalWords(u: UploadView): string {
  const a = u.approval;
  if (!a) return '';
  const by = a.decidedBy ? ` by ${a.decidedBy}` : '';
  const why = a.reason ? ` (${a.reason})` : '';
  const elsewhere = a.sentElsewhere;
  if (elsewhere && a.state === 'sent') {
    return `Approval: approved${by}${why}; sent by ${elsewhere.by ?? 'a colleague'}${elsewhere.computer ? ` from ${elsewhere.computer}` : ''}, not from this computer.`;
  }
  if (a.sender === 'approver' && (a.state === 'waiting' || a.state === 'approved')) {
    return a.state === 'waiting'
      ? `Approval: waiting for an approver, who sends it from their computer once approved (prepared by ${a.preparer ?? 'you'}; file SHA-256 ${a.fileSha256}).`
      : `Approval: approved${by}${why}; ${a.decidedBy ?? 'the approver'} sends it from their computer.`;
  }
  switch (a.state) {
    case 'submitting':
      return 'Approval: not yet recorded by the team database.';
    case 'waiting':
      return `Approval: waiting for an approver (prepared by ${a.preparer ?? 'you'}; file SHA-256 ${a.fileSha256}).`;
    case 'approved':
      return a.decidedBy ? `Approval: approved${by}${why}.` : 'Approval: none needed under the team’s rule.';
    case 'rejected':
      return `Approval: rejected${by}${why}.`;
    case 'void':
      return `Approval: void${why}.`;
    case 'sent':
      return a.decidedBy ? `Approval: approved${by}${why}; sent.` : 'Approval: none needed; sent.';
  }
}

export function uploadExit(uploads: UploadView[], waited: boolean): number {
  if (uploads.some((u) => u.state === 'error' || u.state === 'stopped')) return EXIT.problems;
  if (uploads.some((u) => u.state === 'waiting-approval')) return EXIT.waitingForApproval;
  if (waited && uploads.some((u) => u.state !== 'processed')) return EXIT.service;
  return EXIT.ok;
}

/** Exit code 5: the uploads as they stand, and the maintenance in words (until when, nothing lost). */
async function heldExit(
  ctx: CliContext,
  desk: DeskRuntime,
  held: DeskFailure,
  uploadIds: string[] | null,
): Promise<number> {
  const uploads = (await call(desk, 'upload.list', {})).filter(
    (u) => !uploadIds || uploadIds.includes(u.uploadId),
  );
  printUploads(ctx, uploads, { maintenance: { until: (held.details as { until?: string })?.until } });
  ctx.io.err(maintenanceWords(held, 'upload'));
  return EXIT.maintenance;
}

/** The words of exit code 4, for `upload` and `resume`. */
function waitingWords(u: UploadView): string {
  const after =
    u.approval?.sender === 'approver'
      ? 'Once approved, the approver’s computer sends it; this one follows it (the app, or donation-desk resume).'
      : 'Once approved, this computer sends it (the app, or donation-desk resume).';
  return `Waiting for approval: upload ${u.uploadId} of “${u.workspaceName}” (${count(u.rows, 'row')}) was recorded, built and hashed, and nothing was sent. An approver runs: donation-desk approve ${u.uploadId}. ${after}`;
}

/**
 * The workspace `upload` sends: the file read (a large one in passes, never whole: see
 * readWorkspaceInput), its rows saved chunk by chunk as they are read, never all held at once.
 */
async function createUploadWorkspace(
  ctx: CliContext,
  file: string,
  values: {
    mapping?: string | undefined;
    sheet?: string | undefined;
    'no-row-reference'?: boolean | undefined;
  },
): Promise<{ id: string }> {
  const streamFrom = Number(ctx.io.env.DONATION_DESK_STREAM_FROM_BYTES) || undefined;
  const input = await readWorkspaceInput(file, values.mapping, values.sheet, streamFrom);
  const desk = await ctx.runtime();
  const source = {
    fileName: basename(file),
    format: input.format,
    sheet: input.sheet,
    headerRow: input.headerRow,
    headerRowCount: input.headerRowCount,
    totalsRow: null,
    skippedBlankRows: input.skippedBlankRows,
    warnings: input.warnings,
    fileBytes: input.fileBytes,
    sha256: input.sha256,
  };
  const created = await desk.workspaces.create({
    name: workspaceNameFor({ fileName: basename(file), format: input.format, sheet: input.sheet }),
    source,
    headers: input.headers,
    // Saved chunk by chunk as they are read; keys from 1, so every reference value reads back as a
    // row (0 is not one).
    writeRows: async (writer) => {
      const totalsRow = await input.eachRow(
        (row) => writer.add(row),
        () => writer.flush(),
      );
      return { totalsRow };
    },
    mapping: {
      template: input.template,
      numberStyle: 'auto',
      reference: { enabled: !values['no-row-reference'], key: DEFAULT_REFERENCE_KEY },
    },
  });
  return { id: created.id };
}

registerCommand('upload', {
  summary: 'Upload a spreadsheet of donations as a bulk file, optionally waiting until it is processed.',
  usage: `donation-desk upload FILE [--mapping M.json] [--sheet NAME] [--skip-invalid] [--confirm-duplicates] [--no-row-reference] [--wait] [--json]

Reads the sheet, maps its columns (the template in --mapping, else the automatic suggestion), checks
every row with the same rules as the app, and uploads the valid rows. Rows with errors stop the upload
unless --skip-invalid; rows already sent before (from this computer, or in team mode by anyone in the
team) stop it unless --confirm-duplicates.
Each donation carries the app's row reference pair (metadata "${DEFAULT_REFERENCE_KEY}"), so errors and declines come
back to their row; it counts against the service's 100 metadata pairs. --no-row-reference leaves it
out, as the app's switch does (a file with 100 metadata columns needs it).
Team mode (DONATION_DESK_DATABASE_URL): when the team's rule asks for an approval, the upload is
recorded and waits; nothing is sent until an approver approves it. With --wait the command waits for
the decision, then sends and follows; without, it exits 4 and donation-desk resume sends it later.
Exit codes: 0 sent (with --wait: processed); 1 invalid rows, rows already sent, the upload ended in
ERROR or was stopped (rejected, approval void); 2 the file, mapping or arguments cannot be used;
3 the service or the team database could not be reached or refused; 4 waiting for approval.`,
  async run(ctx) {
    const parsed = commandArgs(ctx, {
      mapping: { type: 'string' },
      sheet: { type: 'string' },
      wait: { type: 'boolean' },
      'skip-invalid': { type: 'boolean' },
      'confirm-duplicates': { type: 'boolean' },
      'no-row-reference': { type: 'boolean' },
    });
    const file = parsed.positionals[0];
    if (!file) {
      ctx.io.err('Name the spreadsheet to upload: donation-desk upload FILE');
      return EXIT.usage;
    }
    const workspace = await createUploadWorkspace(ctx, file, parsed.values);
    const desk = await ctx.runtime();
    let started;
    try {
      started = await call(desk, 'upload.start', {
        workspaceId: workspace.id,
        ...(parsed.values['skip-invalid'] ? { skipInvalid: true } : {}),
        ...(parsed.values['confirm-duplicates'] ? { confirmDuplicates: 'all' as const } : {}),
      });
    } catch (e) {
      if (!(e instanceof DeskFailure)) throw e;
      if (ctx.json)
        ctx.io.out(
          JSON.stringify({ error: { code: e.code, message: e.message, details: e.details } }, null, 2),
        );
      else ctx.io.err(e.message);
      return exitCodeFor('upload', e.code);
    }
    for (const p of started.problems) ctx.io.err(p);
    if (started.upload.state === 'waiting-approval') {
      if (!parsed.values.wait) {
        printUploads(ctx, [started.upload], {
          workspaceId: workspace.id,
          problems: started.problems,
          waitingForApproval: true,
        });
        ctx.io.err(waitingWords(started.upload));
        return EXIT.waitingForApproval;
      }
      ctx.io.err(
        `Upload ${started.uploadId} waits for an approver (donation-desk approve ${started.uploadId}); waiting for the decision…`,
      );
    }
    let uploads = [started.upload];
    try {
      if (parsed.values.wait) uploads = await waitForUploads(ctx, desk, [started.uploadId]);
    } catch (e) {
      if (!isMaintenance(e)) throw e;
      return heldExit(ctx, desk, e as DeskFailure, [started.uploadId]);
    }
    printUploads(ctx, uploads, { workspaceId: workspace.id, problems: started.problems });
    const held = started.problems.length ? maintenanceHold(desk) : null;
    if (held) {
      ctx.io.err(maintenanceWords(held, 'upload'));
      return EXIT.maintenance;
    }
    if (!parsed.values.wait && started.problems.length) return EXIT.service;
    return uploadExit(uploads, parsed.values.wait === true);
  },
});

registerCommand('status', {
  summary: 'Show a bulk intent’s state and timeline, optionally waiting until it is PROCESSED or ERROR.',
  usage: `donation-desk status INTENT_ID [--wait] [--json]
Exit codes: 0 fine so far (with --wait: PROCESSED); 1 ERROR; 2 unknown intent; 3 the service could not be reached.`,
  async run(ctx) {
    const parsed = commandArgs(ctx, { wait: { type: 'boolean' } });
    const id = parsed.positionals[0];
    if (!id) {
      ctx.io.err('Name the bulk intent: donation-desk status INTENT_ID');
      return EXIT.usage;
    }
    const desk = await ctx.runtime();
    let view: IntentView;
    try {
      view = await call(desk, 'upload.get', { intentId: id });
      let delay = waitStep(ctx);
      for (;;) {
        view = await call(desk, 'upload.refresh', { intentId: id }).catch((e: unknown) => {
          if (isMaintenance(e) && parsed.values.wait) throw e;
          return view;
        });
        const done = FINAL.has(view.state) && !(view.state === 'ERROR' && view.donations === null);
        if (!parsed.values.wait || done) break;
        await sleep(delay);
        delay = Math.min(60_000, delay * 1.5);
      }
    } catch (e) {
      if (!(e instanceof DeskFailure)) throw e;
      ctx.io.err(isMaintenance(e) ? maintenanceWords(e, 'upload') : e.message);
      return exitCodeFor('upload', e.code);
    }
    if (ctx.json) ctx.io.out(JSON.stringify(view, null, 2));
    else {
      ctx.io.out(describeIntent(view).trim());
      for (const t of view.timeline) ctx.io.out(`  ${t.at}  ${t.state}${t.note ? `  (${t.note})` : ''}`);
      if (view.error) ctx.io.out(`  ${view.error.title}: ${view.error.detail}`);
    }
    if (view.state === 'ERROR') return EXIT.problems;
    if (parsed.values.wait && view.state !== 'PROCESSED') return EXIT.service;
    return EXIT.ok;
  },
});

/** The error list as `errors --json` prints it: the source row number, the column header, the field. */
export function errorsJson(errors: UploadErrors): unknown {
  return {
    intentId: errors.intentId,
    status: errors.status,
    form: errors.form,
    issues: errors.issues.map((i) => ({
      row: i.row,
      column: i.column,
      field: i.field,
      code: i.code,
      title: i.title,
      detail: i.detail,
    })),
  };
}

async function writeErrorsXlsx(path: string, errors: UploadErrors): Promise<void> {
  const rows = [
    ['Row', 'Column', 'Field', 'Code', 'Problem', 'Detail'],
    ...errors.issues.map((i) =>
      [i.row ?? '', i.column ?? '', i.field, i.code, i.title, i.detail].map((v) =>
        typeof v === 'string' ? neutraliseCell(v) : v,
      ),
    ),
  ];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Errors');
  const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  await writeFileAtomic(path, bytes);
}

registerCommand('errors', {
  summary: 'List the errors of a bulk intent in ERROR, each on its spreadsheet row and column.',
  usage: `donation-desk errors INTENT_ID [--json] [--out FILE.xlsx]
--json prints {"intentId", "status", "form": "donations"|"file", "issues": [{"row", "column", "field", "code", "title", "detail"}]}
with "row" the source spreadsheet's row number (null for an error about the whole file).
Exit codes: 1 errors were listed; 0 none; 2 unknown intent or not in ERROR; 3 the service could not be reached.`,
  async run(ctx) {
    const parsed = commandArgs(ctx, { out: { type: 'string' } });
    const id = parsed.positionals[0];
    if (!id) {
      ctx.io.err('Name the bulk intent: donation-desk errors INTENT_ID');
      return EXIT.usage;
    }
    const desk = await ctx.runtime();
    let errors: UploadErrors;
    try {
      errors = await call(desk, 'upload.errors', { intentId: id });
    } catch (e) {
      if (!(e instanceof DeskFailure)) throw e;
      ctx.io.err(e.message);
      return exitCodeFor('uploadErrors', e.code);
    }
    if (parsed.values.out) await writeErrorsXlsx(resolve(parsed.values.out), errors);
    if (ctx.json) ctx.io.out(JSON.stringify(errorsJson(errors), null, 2));
    else {
      ctx.io.out(
        `Bulk ${errors.intentId}: ${count(errors.issues.length, 'error')} (${errors.form === 'file' ? 'the file itself' : 'invalid donations'})`,
      );
      for (const i of errors.issues) {
        const where = i.row !== null ? `row ${i.row}${i.column ? `, ${i.column}` : ''}` : 'file';
        ctx.io.out(`  ${where}: ${i.title}${i.detail ? ` — ${i.detail}` : ''}`);
      }
      if (parsed.values.out) ctx.io.out(`Written to ${parsed.values.out}`);
    }
    return errors.issues.length ? EXIT.problems : EXIT.ok;
  },
});

registerCommand('resume', {
  summary: 'Finish what an interrupted run left: send unsent files, follow open bulk intents.',
  usage: `donation-desk resume [--wait] [--json]
Team mode: sends uploads an approver has approved; those still waiting stay unsent (with --wait, it
waits for their decision too). When the team's rule says the approver sends, the approver's resume
sends the uploads they approved (the files their preparers' computers stored), and the preparer's
resume sends nothing: it follows the bulks the approver's computer sent.
Exit codes: 0 nothing left open (or, without --wait, resumed); 1 an upload ended in ERROR or was
stopped (rejected, approval void); 3 the service or the team database could not be reached;
4 some upload still waits for approval.`,
  async run(ctx) {
    const parsed = commandArgs(ctx, { wait: { type: 'boolean' } });
    const desk = await ctx.runtime();
    // One pass first, awaited: it also takes over uploads this login approved and is to send.
    await desk.resumeUploads();
    let uploads: UploadView[];
    try {
      uploads = parsed.values.wait
        ? await waitForUploads(ctx, desk, null)
        : await call(desk, 'upload.list', {});
    } catch (e) {
      if (!isMaintenance(e)) throw e;
      return heldExit(ctx, desk, e as DeskFailure, null);
    }
    printUploads(ctx, uploads);
    for (const u of uploads) if (u.state === 'waiting-approval') ctx.io.err(waitingWords(u));
    return uploadExit(uploads, parsed.values.wait === true);
  },
});
