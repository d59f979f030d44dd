import { count } from '../../../shared/i18n';
import type { DeskRuntime } from '../../services';
import type { CorrectionHolder, TeamDatabase } from '../../services/team/teamTypes';
import { environmentKeyOf } from '../../services/team/teamUploads';
import { EXIT } from '../exitCodes';
import { commandArgs, registerCommand, type CliContext } from '../main';
import { teamOf, teamRefusal } from './teamCli';

/*
 * Team mode: the corrections of declined donations in progress, and giving one up when it was left
 * so (its preparer away, an upload that will never be sent). The team database decides who may give
 * one up (the person who claimed it, or a desk admin) and refuses a correction already done; this
 * command asks it, says what it answered, and writes the reason to the audit trail.
 */

const USAGE = `donation-desk corrections [--older-than DAYS] [--json]
donation-desk corrections release DONATION_ID --reason R [--json]

Team mode. Lists the corrections of declined donations in progress in the environment in force,
oldest first: who is correcting each one, from which computer, since when, and in which upload.
While one is in progress nobody else in the team may correct or dismiss that declined donation.
--older-than DAYS lists only those claimed at least that many days ago.

  release   gives up a correction left in progress, so that anyone in the team may correct the
            declined donation again. Only the person correcting it, or a desk admin, may; a
            correction already done (its replacement recorded) cannot be given up. If its
            replacement was in fact created, a second correction would pay the gift twice: look in
            Reconcile (Refresh from the service) first. The reason goes to the audit trail.

Exit codes: 0 listed or given up; 1 the team database refused (not yours and you are not a desk
admin, or already replaced); 2 the arguments cannot be used, no team database is configured, or no
correction of that donation is in progress; 3 the team database could not be reached.`;

const DAY_MS = 24 * 60 * 60 * 1000;

async function correctionsTeam(
  ctx: CliContext,
): Promise<{ desk: DeskRuntime; team: TeamDatabase; environmentKey: string } | null> {
  const found = await teamOf(ctx, 'Corrections are shared only through the team database');
  if (!found) return null;
  return { ...found, environmentKey: environmentKeyOf(await found.desk.environments.describe()) };
}

const minute = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function describe(c: CorrectionHolder, now: number): string {
  const days = Math.floor((now - Date.parse(c.since)) / DAY_MS);
  const where = c.uploadId ? `in upload ${c.uploadId}` : 'on its own';
  return `${c.donationId}  ${c.by} (${c.computer || 'computer unknown'}) since ${minute(c.since)} (${count(days, 'day')}), ${where}`;
}

async function list(ctx: CliContext): Promise<number> {
  const parsed = commandArgs(ctx, { 'older-than': { type: 'string' } }, false);
  const raw = parsed.values['older-than'];
  const olderThan = raw === undefined ? 0 : Number(raw);
  if (!Number.isInteger(olderThan) || olderThan < 0) {
    ctx.io.err('--older-than takes a whole number of days, such as --older-than 7.');
    return EXIT.usage;
  }
  const found = await correctionsTeam(ctx);
  if (!found) return EXIT.usage;
  let all: CorrectionHolder[];
  try {
    all = await found.team.correctionsInProgress(found.environmentKey);
  } catch (e) {
    return teamRefusal(ctx, e);
  }
  const now = Date.now();
  const shown = all.filter((c) => now - Date.parse(c.since) >= olderThan * DAY_MS);
  if (ctx.json) {
    ctx.io.out(JSON.stringify({ corrections: shown }, null, 2));
    return EXIT.ok;
  }
  const aged = olderThan > 0 ? ` for ${count(olderThan, 'day')} or more` : '';
  if (shown.length === 0) {
    ctx.io.out(`No correction of a declined donation is in progress${aged}.`);
    return EXIT.ok;
  }
  ctx.io.out(`${count(shown.length, 'correction')} in progress${aged}:`);
  for (const c of shown) ctx.io.out(`  ${describe(c, now)}`);
  return EXIT.ok;
}

async function release(ctx: CliContext, args: string[]): Promise<number> {
  const parsed = commandArgs({ ...ctx, args }, { reason: { type: 'string' } });
  const donationId = parsed.positionals[0];
  const reason = parsed.values.reason?.trim();
  if (!donationId || parsed.positionals.length > 1) {
    ctx.io.err('Name one declined donation: donation-desk corrections release DONATION_ID --reason "…"');
    return EXIT.usage;
  }
  if (!reason) {
    ctx.io.err('Say why the correction is given up: --reason "…" (it goes to the audit trail).');
    return EXIT.usage;
  }
  const found = await correctionsTeam(ctx);
  if (!found) return EXIT.usage;
  let held: CorrectionHolder | undefined;
  try {
    held = (await found.team.correctionsInProgress(found.environmentKey)).find(
      (c) => c.donationId === donationId,
    );
  } catch (e) {
    return teamRefusal(ctx, e);
  }
  if (!held) {
    ctx.io.err(
      `No correction of donation ${donationId} is in progress (it may be done, given up already, or never started). donation-desk corrections lists those in progress.`,
    );
    return EXIT.usage;
  }
  try {
    await found.team.abandonCorrection(found.environmentKey, donationId);
  } catch (e) {
    return teamRefusal(ctx, e);
  }
  found.desk.audit.recordDone(
    'release-correction',
    { donationId, uploadId: held.uploadId },
    { reason, claimedBy: held.by, computer: held.computer, since: held.since, how: held.how },
  );
  if (ctx.json) ctx.io.out(JSON.stringify({ released: { ...held, state: 'abandoned' }, reason }, null, 2));
  else {
    ctx.io.out(
      `Gave up the correction of donation ${donationId} that ${held.by} started ${held.uploadId ? `in upload ${held.uploadId} ` : ''}on ${minute(held.since)}: anyone in the team may correct it now.`,
    );
  }
  return EXIT.ok;
}

registerCommand('corrections', {
  summary: 'Team mode: corrections of declined donations in progress; release one left so.',
  usage: USAGE,
  run: (ctx) => (ctx.args[0] === 'release' ? release(ctx, ctx.args.slice(1)) : list(ctx)),
});
