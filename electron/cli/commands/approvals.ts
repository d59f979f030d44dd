import { count } from '../../../shared/i18n';
import type { DeskRuntime } from '../../services';
import type { TeamDatabase, TeamUpload } from '../../services/team/teamTypes';
import { EXIT, exitCodeOf } from '../exitCodes';
import { commandArgs, registerCommand, type CliContext } from '../main';
import { fileLines, readFileOf, refuseUnlessFileAgrees } from './approvalFile';
import { teamOf, teamRefusal } from './teamCli';
import { printUploads, sleepOrNews, uploadExit, waitForUploads, waitStep } from './upload';

/*
 * Maker-checker from the command line: the team's uploads waiting for approval, and an approver's
 * decision on one. The team database decides who may decide (not the preparer, only desk_approver,
 * only the exact file submitted); these commands only ask it and say plainly what it answered.
 */

const DECISION_EXITS = `Exit codes: 0 decided; 1 the team database refused (your own upload, not an approver,
already decided or void, a file other than the one submitted); 2 the arguments cannot be used, no
team database is configured, or there is no such upload; 3 the team database could not be reached;
5 (approve only) the upload's file, read on this computer, differs from what the preparer's app
declared or cannot be checked: nothing was approved.`;

const teamOfApprovals = (ctx: CliContext) => teamOf(ctx, 'Approvals need the team database');

function money(totals: TeamUpload['totals']): string {
  return totals
    .map((t) => `${t.currencyCode} ${t.amount} (minor units, ${count(t.count, 'donation')})`)
    .join('; ');
}

/** One upload on a line; `fileRead`: its figures follow, read from the file, so none are repeated here. */
function describe(u: TeamUpload, fileRead = false): string {
  const decided = u.decidedBy
    ? `, ${u.state} by ${u.decidedBy} at ${u.decidedAt}${u.reason ? ` (${u.reason})` : ''}`
    : '';
  const sender = u.sentBy
    ? `; sent by ${u.sentBy}${u.sentFrom ? ` from ${u.sentFrom}` : ''}`
    : u.state === 'waiting' || u.state === 'approved'
      ? `; sent by the ${u.sender === 'approver' ? 'approver' : 'preparer'}`
      : '';
  return `${u.id}  ${u.state.padEnd(8)} “${u.workspaceName}” prepared by ${u.preparer} on ${u.computer} at ${u.createdAt}${fileRead ? '' : `: ${count(u.rows, 'row')}, ${money(u.totals)}`}${decided}${sender}`;
}

async function decide(ctx: CliContext, decision: 'approve' | 'reject'): Promise<number> {
  const parsed = commandArgs(ctx, { reason: { type: 'string' }, wait: { type: 'boolean' } });
  const id = parsed.positionals[0];
  const reason = parsed.values.reason?.trim() || null;
  if (!id || parsed.positionals.length > 1) {
    ctx.io.err(
      `Name one upload: donation-desk ${decision} UPLOAD_ID${decision === 'reject' ? ' --reason "…"' : ''}`,
    );
    return EXIT.usage;
  }
  if (decision === 'reject' && !reason) {
    ctx.io.err('Say why the upload is rejected: --reason "…" (the preparer sees it).');
    return EXIT.usage;
  }
  const found = await teamOfApprovals(ctx);
  if (!found) return EXIT.usage;
  let record: TeamUpload | null;
  try {
    record = await found.team.upload(id);
  } catch (e) {
    return teamRefusal(ctx, e);
  }
  if (!record) {
    ctx.io.err(`The team database has no upload ${id}. donation-desk approvals lists those waiting.`);
    return EXIT.usage;
  }
  if (decision === 'approve') {
    // The file itself, read here, not the preparer's description of it: any difference stops here.
    let refused: number | null;
    try {
      refused = await refuseUnlessFileAgrees(ctx, found.desk, found.team, record);
    } catch (e) {
      return teamRefusal(ctx, e);
    }
    if (refused !== null) return refused;
  }
  let decided: TeamUpload;
  try {
    // The decision binds to the file the team's record shows, the one reviewed here and nothing else.
    decided = await found.team.decide(id, decision, record.fileSha256, reason);
  } catch (e) {
    return teamRefusal(ctx, e);
  }
  if (decided.state === 'approved' && decided.sender === 'approver') {
    return sendAfterApproval(ctx, found.desk, decided, parsed.values.wait === true);
  }
  if (decided.state === 'approved' && parsed.values.wait === true) {
    return waitForPreparer(ctx, found.desk, found.team, decided);
  }
  if (ctx.json) ctx.io.out(JSON.stringify(decided, null, 2));
  else {
    ctx.io.out(
      decision === 'approve'
        ? `Approved upload ${id} (file SHA-256 ${decided.fileSha256}): ${count(decided.rows, 'row')}, ${money(decided.totals)}. The preparer's computer sends it (the app, or donation-desk resume there).`
        : `Rejected upload ${id}: ${reason}. Nothing of it is sent; the preparer sees the reason.`,
    );
  }
  return EXIT.ok;
}

/**
 * `approve --wait` when the preparer's computer sends: waits until the team's record says it was
 * sent (or voided), woken at once by the team database's news, else looking again less and less
 * often (from DONATION_DESK_POLL_MIN_MS, 3 s, up to a minute).
 */
async function waitForPreparer(
  ctx: CliContext,
  desk: DeskRuntime,
  team: TeamDatabase,
  decided: TeamUpload,
): Promise<number> {
  const id = decided.id;
  if (!ctx.json) {
    ctx.io.out(
      `Approved upload ${id} (file SHA-256 ${decided.fileSha256}): ${count(decided.rows, 'row')}, ${money(decided.totals)}. Waiting for the preparer's computer to send it…`,
    );
  }
  let delay = waitStep(ctx);
  let now = decided;
  for (;;) {
    try {
      now = (await team.upload(id)) ?? now;
    } catch {
      // The team database away for a moment: look again at the next round.
    }
    if (now.state !== 'approved') break;
    delay = (await sleepOrNews(desk, delay)) ? waitStep(ctx) : Math.min(60_000, delay * 1.5);
  }
  if (ctx.json) ctx.io.out(JSON.stringify(now, null, 2));
  else if (now.state === 'sent') {
    ctx.io.out(
      `Sent: ${now.sentBy ?? decided.preparer}${now.sentFrom ? ` sent it from ${now.sentFrom}` : ' sent it'} (upload ${id}).`,
    );
  } else ctx.io.err(`Upload ${id} was not sent: it is ${now.state}${now.reason ? ` (${now.reason})` : ''}.`);
  return now.state === 'sent' ? EXIT.ok : EXIT.problems;
}

/**
 * The team's rule says the approver sends: this computer fetches the exact file the preparer's
 * computer stored (its SHA-256 checked against the one just approved), sends it and, with --wait,
 * follows it to the end. The approval stands whatever happens here: `resume` finishes the sending.
 */
async function sendAfterApproval(
  ctx: CliContext,
  desk: DeskRuntime,
  decided: TeamUpload,
  wait: boolean,
): Promise<number> {
  const id = decided.id;
  if (!ctx.json) {
    ctx.io.out(
      `Approved upload ${id} (file SHA-256 ${decided.fileSha256}): ${count(decided.rows, 'row')}, ${money(decided.totals)}. The team's rule says the approver sends it: sending it from this computer.`,
    );
  }
  let problems: string[];
  try {
    problems = (await desk.sendApproved(id)).problems;
  } catch (e) {
    ctx.io.err(
      `Approved, but not sent yet: ${e instanceof Error ? e.message : String(e)} Run donation-desk resume on this computer to send it.`,
    );
    return exitCodeOf('approvedSend', e);
  }
  for (const p of problems) ctx.io.err(p);
  const uploads = wait
    ? await waitForUploads(ctx, desk, [id])
    : (await desk.services['upload.list']({}, { transport: 'cli' })).filter((u) => u.uploadId === id);
  printUploads(ctx, uploads, ctx.json ? { approval: decided } : {});
  return uploadExit(uploads, wait);
}

registerCommand('approve', {
  summary: 'Team mode: approve an upload waiting for approval (not your own).',
  usage: `donation-desk approve UPLOAD_ID [--reason R] [--wait] [--json]

Approves exactly the bulk file the team's record of the upload shows (its SHA-256): an upload edited
since is void and cannot be approved. First this computer fetches the file from the team database,
checks its SHA-256 and reads it: when its donations, count or totals differ from what the preparer's
app declared, or it cannot be checked, nothing is approved (exit code 5) and the audit trail says so. The preparer may not approve their own upload, and only a login
with the desk_approver role may approve: the team database enforces both.
When the team's rule says the approver sends, this computer then sends it (the exact file its
preparer's computer stored, SHA-256 checked) and --wait follows it until the service has processed
it; after an interruption, donation-desk resume on this computer finishes sending it. When the
preparer's computer sends it, --wait waits until it has been sent (exit 0), or voided (exit 1).
${DECISION_EXITS}
When it is sent from here, the exit codes are those of donation-desk upload (1: a part ended in ERROR
or was stopped; 3: the service could not be reached).`,
  run: (ctx) => decide(ctx, 'approve'),
});

registerCommand('reject', {
  summary: 'Team mode: reject an upload waiting for approval, with the reason.',
  usage: `donation-desk reject UPLOAD_ID --reason R [--json]

Rejects the upload: nothing of it is sent, and its rows no longer count as sent for the duplicate guard.
${DECISION_EXITS}`,
  run: (ctx) => decide(ctx, 'reject'),
});

registerCommand('approvals', {
  summary: 'Team mode: the uploads waiting for approval (--all: every upload the team submitted).',
  usage: `donation-desk approvals [--all] [--json]

Lists the team's uploads waiting for an approver, newest first; --all lists every state (waiting,
approved, rejected, void, sent). Each waiting upload's file is fetched from the team database and read
on this computer (SHA-256 checked): its count and total per currency are shown beside what the
preparer's app declared, with its warnings and any difference (which blocks approving it).
--json prints {"approvals": [...]} with the team database's records, each waiting one with "file".
Exit codes: 0 listed; 2 no team database is configured; 3 the team database could not be reached.`,
  async run(ctx) {
    const parsed = commandArgs(ctx, { all: { type: 'boolean' } }, false);
    const found = await teamOfApprovals(ctx);
    if (!found) return EXIT.usage;
    let list: TeamUpload[];
    try {
      list = await found.team.uploads(parsed.values.all ? undefined : { state: 'waiting' });
    } catch (e) {
      return teamRefusal(ctx, e);
    }
    // Each waiting upload's file, read on this computer: what the approver is shown comes from it.
    const files = new Map<string, Awaited<ReturnType<typeof readFileOf>>>();
    try {
      for (const u of list) if (u.state === 'waiting') files.set(u.id, await readFileOf(found.team, u));
    } catch (e) {
      return teamRefusal(ctx, e);
    }
    if (ctx.json) {
      const approvals = list.map((u) => {
        const file = files.get(u.id);
        return file ? { ...u, file } : u;
      });
      ctx.io.out(JSON.stringify({ approvals }, null, 2));
      return EXIT.ok;
    }
    if (list.length === 0) {
      ctx.io.out(
        parsed.values.all ? 'The team has submitted no upload yet.' : 'No upload waits for approval.',
      );
      return EXIT.ok;
    }
    ctx.io.out(
      parsed.values.all
        ? `${count(list.length, 'upload')} submitted by the team:`
        : `${count(list.length, 'upload')} waiting for approval:`,
    );
    for (const u of list) {
      const file = files.get(u.id);
      ctx.io.out(`  ${describe(u, file !== undefined)}`);
      if (file) for (const line of fileLines(u, file)) ctx.io.out(line);
    }
    return EXIT.ok;
  },
});
