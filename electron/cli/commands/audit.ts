import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { auditFilterSchema, type AuditEntry, type AuditFilter } from '../../../shared/contract/auditChannels';
import { describeAuditEntry } from '../../../shared/audit/describeAuditEntry';
import { DeskFailure } from '../../../shared/result';
import { count } from '../../../shared/i18n';
import { AuditStore } from '../../services/audit/auditStore';
import { exportAudit } from '../../services/audit';
import { DATABASE_FILE, DeskDatabase } from '../../services/db/deskDatabase';
import { writeFileAtomic } from '../../services/storage/atomicFile';
import type { DeskRuntime } from '../../services';
import type { TeamDatabase } from '../../services/team/teamTypes';
import { EXIT, exitCodeOf } from '../exitCodes';
import { commandArgs, registerCommand, type CliContext } from '../main';
import { auditVerify, VERIFY_USAGE } from './auditVerify';

const USAGE = `donation-desk audit [--upload ID] [--workspace ID] [--donation ID] [--person NAME]
                    [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--json] --out FILE.xlsx|FILE.csv

Writes the audit trail (who imported, edited, sent, corrected, dismissed or changed a setting, and
when), newest first, to an xlsx or CSV file chosen by FILE's extension. The filters narrow it to
one upload, workspace, donation or person, and to whole days in UTC (--since and --until included).
With --json and no --out, prints the entries as JSON instead ({"entries": [...]}, details as recorded);
with --json and --out, prints {"ok", "path", "format", "entries"}.
In team mode (DONATION_DESK_DATABASE_URL) it is the team's trail: every computer's entries, with
the person as the database login, and the submissions, approvals, rejections and sends the team
database wrote itself. This folder's newest entries are copied to it first.
Exit codes: 0 written (also when no entry matched); 2 the arguments cannot be used (no --out,
an extension other than .xlsx or .csv, a date that is not YYYY-MM-DD) or the folder has no database yet;
3 the team database could not be reached.

${VERIFY_USAGE}`;

registerCommand('audit', {
  summary:
    'The audit trail (who did what, when) to an xlsx or CSV file for the auditors; `audit verify` checks no entry was changed.',
  usage: USAGE,
  async run(ctx) {
    if (ctx.args[0] === 'verify') return auditVerify({ ...ctx, args: ctx.args.slice(1) });
    const { values } = commandArgs(
      ctx,
      {
        upload: { type: 'string' },
        workspace: { type: 'string' },
        donation: { type: 'string' },
        person: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        out: { type: 'string' },
      },
      false,
    );
    const parsed = auditFilterSchema.safeParse({
      uploadId: values.upload,
      workspaceId: values.workspace,
      donationId: values.donation,
      person: values.person,
      since: values.since,
      until: values.until,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const option = { uploadId: 'upload', workspaceId: 'workspace', donationId: 'donation' }[
        String(issue?.path[0])
      ];
      ctx.io.err(`--${option ?? String(issue?.path[0])}: ${issue?.message ?? 'not understood'}`);
      return EXIT.usage;
    }
    const filter: AuditFilter = parsed.data;
    const format = values.out ? extname(values.out).slice(1).toLowerCase() : null;
    if (!values.out && !ctx.json) {
      ctx.io.err('Say where to write the trail: --out FILE.xlsx or --out FILE.csv (or --json to print it).');
      return EXIT.usage;
    }
    if (format !== null && format !== 'xlsx' && format !== 'csv') {
      ctx.io.err(`--out ${values.out}: end the file name with .xlsx or .csv to choose the format.`);
      return EXIT.usage;
    }
    if (!existsSync(join(ctx.dataDir, DATABASE_FILE))) {
      ctx.io.err(
        `There is no database in ${ctx.dataDir} yet, so no audit trail: it is made the first time the app or a command uses this folder.`,
      );
      return EXIT.usage;
    }
    // Team mode: the team's trail (this folder's entries copied to it first), who = the database login.
    // Alone, the trail is read straight from the folder's database, without starting the app's services.
    if (ctx.io.env.DONATION_DESK_DATABASE_URL) {
      const desk = await ctx.runtime();
      const team = desk.team.current();
      if (team) return teamAudit(ctx, desk, team, filter, format, values.out);
    }
    const db = DeskDatabase.open(ctx.dataDir);
    try {
      const store = new AuditStore(db);
      if (!format || !values.out) {
        ctx.io.out(JSON.stringify({ entries: [...store.all(filter)] }, null, 2));
        return EXIT.ok;
      }
      const file = await exportAudit(store, filter, format);
      const path = resolve(values.out);
      await writeFileAtomic(path, file.bytes);
      if (ctx.json) ctx.io.out(JSON.stringify({ ok: true, path, format, entries: file.entries }, null, 2));
      else {
        ctx.io.out(`Wrote ${count(file.entries, 'entry', 'entries')} of the audit trail to ${path}.`);
        const newest = store.page(filter, { limit: 1 }).entries[0];
        if (newest) ctx.io.out(`Newest: ${newest.at} ${newest.person} — ${describeAuditEntry(newest)}`);
      }
      return EXIT.ok;
    } catch (e) {
      if (e instanceof DeskFailure) {
        ctx.io.err(e.message);
        return EXIT.usage;
      }
      throw e;
    } finally {
      db.close();
    }
  },
});

async function teamAudit(
  ctx: CliContext,
  desk: DeskRuntime,
  team: TeamDatabase,
  filter: AuditFilter,
  format: string | null,
  out: string | undefined,
): Promise<number> {
  let entries: AuditEntry[];
  try {
    await desk.pushAudit();
    entries = await team.audit.all(filter);
  } catch (e) {
    ctx.io.err(`The team's audit trail could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return exitCodeOf('teamAudit', e);
  }
  if (!format || !out) {
    ctx.io.out(JSON.stringify({ entries }, null, 2));
    return EXIT.ok;
  }
  const file = await exportAudit(entries, filter, format as 'xlsx' | 'csv');
  const path = resolve(out);
  await writeFileAtomic(path, file.bytes);
  if (ctx.json) ctx.io.out(JSON.stringify({ ok: true, path, format, entries: file.entries }, null, 2));
  else {
    ctx.io.out(
      `Wrote ${count(file.entries, 'entry', 'entries')} of the team's audit trail (${team.server}) to ${path}.`,
    );
    const newest = entries[0];
    if (newest) ctx.io.out(`Newest: ${newest.at} ${newest.person} — ${describeAuditEntry(newest)}`);
  }
  return EXIT.ok;
}
