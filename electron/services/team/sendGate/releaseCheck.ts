/*
 * Team mode, right before an upload's unsent parts are sent: the team database releases it for
 * exactly the file approved, or says why not. On a computer that does not send it (the preparer's,
 * when the approver sends), it says where the upload stands and the bulks sent elsewhere are
 * adopted here.
 */
import { DeskFailure } from '../../../../shared/result';
import type { LedgerApproval, LedgerGroup, LedgerIntent } from '../../ledger/ledgerShapes';
import { unsent, stopGroup } from '../../upload/ledgerGroups';
import type { GateAnswer, SendGateHost } from '../../upload/sendGate';
import { intentView } from '../../upload/views';
import type { TeamDatabase, TeamUpload } from '../teamTypes';
import { noteTeamState, refusalReason } from './approvalState';
import { storeFiles, useStoredBytes } from './uploadFiles';

/**
 * The database marks the upload sent for exactly the file approved (its stored bytes put in place
 * first, see useStoredBytes), or refuses. Refused while it
 * waits: nothing is sent and a later resume asks again. Rejected or void: the upload is stopped with
 * the reason and its rows no longer count as out.
 */
export async function releaseCheck(
  host: SendGateHost,
  team: TeamDatabase,
  group: LedgerGroup,
  filesStored: Set<string>,
): Promise<GateAnswer> {
  const { ctx } = host;
  const approval = group.approval as LedgerApproval;
  // Another computer sends it (the approver's, by the team's rule): never sent from here.
  if (approval.sendsHere === false) return colleagueSends(host, team, group, filesStored);
  // The approved bytes, fetched from the team database and checked, are what this computer sends:
  // put in place before the upload is marked sent, so "sent" is never recorded for bytes that
  // cannot leave. Without them nothing is marked and nothing goes.
  let now: TeamUpload | null;
  try {
    now = await team.upload(group.id);
  } catch {
    return { verdict: 'wait' };
  }
  // Waiting: its file goes with the submission, should the server not have taken it then.
  if (now?.state === 'waiting') await storeFiles(ctx, team, group, filesStored).catch(() => undefined);
  if (now?.state === 'approved' && (now.sender === 'preparer' || approval.sendsHere === true)) {
    try {
      await useStoredBytes(ctx, team, group, filesStored);
    } catch (e) {
      if (!(e instanceof DeskFailure) || e.code !== 'FILE_MISMATCH') return { verdict: 'wait' };
      return { verdict: 'wait', problem: e.message };
    }
  }
  try {
    const sent = await team.markSent(group.id, approval.fileSha256);
    await noteTeamState(ctx, group, sent);
    return { verdict: 'go' };
  } catch (refusal) {
    let known: TeamUpload | null;
    try {
      known = await team.upload(group.id);
    } catch {
      return { verdict: 'wait' };
    }
    if (!known) {
      await stopGroup(
        ctx,
        group,
        'The team database has no record of this upload, so it was not sent. Upload the workspace again.',
      );
      return { verdict: 'stopped' };
    }
    // Sent by another login or computer (mark_sent answers only the one that sent it), or to be
    // sent by the approver: this computer follows what they sent and never sends it itself.
    // (The approver's own copy of an upload it sends says sendsHere: true and waits like any other.)
    if (
      known.state === 'sent' ||
      (known.sender === 'approver' && known.state === 'approved' && approval.sendsHere !== true)
    ) {
      await noteTeamState(ctx, ctx.ledger.group(group.id) ?? group, known, false);
      return colleagueSends(host, team, ctx.ledger.group(group.id) ?? group, filesStored, known);
    }
    const noted = await noteTeamState(ctx, group, known);
    switch (known.state) {
      case 'rejected':
      case 'void':
        await stopGroup(ctx, noted, refusalReason(known));
        return { verdict: 'stopped' };
      case 'approved':
        // Approved, yet refused: a file other than the one approved, or the server busy. Ask again later.
        return {
          verdict: 'wait',
          problem: refusal instanceof Error ? refusal.message : 'The team database refused to release it.',
        };
      default:
        return { verdict: 'wait' };
    }
  }
}

/**
 * On a computer that does not send the upload: where it stands in the team database. Waiting: its
 * files are stored if they were not yet. Sent: the bulks the sending computer recorded are adopted
 * here (see adoptBulks). Rejected or void: stopped, as for an upload sent from here.
 */
async function colleagueSends(
  host: SendGateHost,
  team: TeamDatabase,
  group: LedgerGroup,
  filesStored: Set<string>,
  answer?: TeamUpload,
): Promise<GateAnswer> {
  const { ctx } = host;
  let known: TeamUpload | null = answer ?? null;
  if (!known) {
    try {
      known = await team.upload(group.id);
    } catch {
      return { verdict: 'wait' };
    }
  }
  if (!known) {
    await stopGroup(ctx, group, 'The team database has no record of this upload.');
    return { verdict: 'stopped' };
  }
  const noted = await noteTeamState(ctx, group, known, false);
  switch (known.state) {
    case 'waiting':
      if (known.sender === 'approver') {
        try {
          await storeFiles(ctx, team, noted, filesStored);
        } catch (e) {
          return {
            verdict: 'wait',
            problem: `The file could not be stored with the upload for the approver yet (${e instanceof Error ? e.message : String(e)}); it is tried again.`,
          };
        }
      }
      return { verdict: 'wait' };
    case 'approved':
      return { verdict: 'wait' };
    case 'sent':
      await adoptBulks(host, team, noted);
      return { verdict: 'elsewhere' };
    default:
      await stopGroup(ctx, noted, refusalReason(known));
      return { verdict: 'stopped' };
  }
}

/**
 * The bulks another computer of the team created for this upload become this computer's intents
 * (with the service's ids), and are followed from here too: the Uploads page shows where they
 * stand, a bulk in ERROR has its error file and its repair from this workspace, and Reconcile ties
 * their donations to this workspace's rows. Bulks not recorded yet are asked for at the next resume.
 */
async function adoptBulks(host: SendGateHost, team: TeamDatabase, group: LedgerGroup): Promise<void> {
  const { ctx } = host;
  let bulks;
  try {
    bulks = await team.uploadBulks(group.id);
  } catch {
    host.scheduleResume();
    return;
  }
  const known = new Set(ctx.ledger.intentsOf(group.id).map((i) => i.serviceId));
  const who = group.approval?.sentBy ?? group.approval?.decidedBy ?? 'a colleague';
  const from = group.approval?.sentFrom ? ` from ${group.approval.sentFrom}` : '';
  for (const bulk of bulks) {
    if (known.has(bulk.bulkId) || !group.parts[bulk.part]) continue;
    const at = new Date(ctx.now()).toISOString();
    const intent: LedgerIntent = {
      attemptId: `team-${bulk.bulkId}`,
      serviceId: bulk.bulkId,
      groupId: group.id,
      part: bulk.part,
      state: 'UPLOADED',
      createdAt: at,
      updatedAt: at,
      expiresAt: null,
      timeline: [{ state: 'UPLOADED', at, note: `sent by ${who}${from}` }],
      counts: {},
      error: null,
      donationRowKeys: null,
      correctedByUpload: null,
    };
    await ctx.ledger.putIntent(intent);
    ctx.events.emit('intent.updated', intentView(group, intent));
    host.follow(intent);
  }
  if (unsent(ctx.ledger, ctx.ledger.group(group.id) ?? group)) host.scheduleResume();
}
