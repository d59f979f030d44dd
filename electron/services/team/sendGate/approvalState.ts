/*
 * Team mode: the team database's record of an upload, written into the local ledger's approval,
 * and the one notice the preparer gets when an approver decided.
 */
import type { LedgerApproval, LedgerGroup } from '../../ledger/ledgerShapes';
import type { UploadBasics } from '../../upload/basics';
import type { TeamUpload } from '../teamTypes';

/** Writes where the team's record of the upload stands into the local group. */
export async function noteTeamState(
  ctx: Pick<UploadBasics, 'ledger' | 'platform'>,
  group: LedgerGroup,
  known: TeamUpload,
  sendsHere?: boolean,
): Promise<LedgerGroup> {
  const current = ctx.ledger.group(group.id) ?? group;
  const before = current.approval as LedgerApproval;
  const approval: LedgerApproval = {
    ...before,
    // An upload that never waited was let through by the rule, not by a person.
    needed: before.state === 'submitting' ? known.state === 'waiting' : before.needed,
    state: known.state,
    preparer: known.preparer,
    decidedBy: known.decidedBy,
    decidedAt: known.decidedAt,
    reason: known.reason,
    sender: known.sender,
    // Decided once: the approver's computer sends what the rule gave it, never the preparer's.
    sendsHere: sendsHere ?? before.sendsHere ?? known.sender !== 'approver',
    sentBy: known.sentBy,
    sentFrom: known.sentFrom,
  };
  if (JSON.stringify(approval) === JSON.stringify(before)) return current;
  const next = { ...current, approval };
  await ctx.ledger.putGroup(next);
  if (before.state === 'waiting' && approval.state !== 'waiting') notifyDecision(ctx, next);
  return next;
}

/** Tells the preparer, once, what became of an upload that waited for an approver. */
function notifyDecision(ctx: Pick<UploadBasics, 'platform'>, group: LedgerGroup): void {
  const a = group.approval as LedgerApproval;
  const by = a.decidedBy ?? 'an approver';
  const why = a.reason ? `: ${a.reason}` : '.';
  if ((a.state === 'approved' || a.state === 'sent') && a.sendsHere === false)
    ctx.platform.notify?.(
      'Upload approved',
      `${group.workspaceName}: approved by ${by}, who sends it from their computer.`,
    );
  else if (a.state === 'approved' || a.state === 'sent')
    ctx.platform.notify?.('Upload approved', `${group.workspaceName}: approved by ${by}; sending it now.`);
  else if (a.state === 'rejected')
    ctx.platform.notify?.('Upload rejected', `${group.workspaceName}: rejected by ${by}${why}`);
  else if (a.state === 'void') ctx.platform.notify?.('Approval void', `${group.workspaceName}${why}`);
}

/** Why an upload the team's approvers turned down (or voided) is stopped. */
export function refusalReason(known: TeamUpload): string {
  if (known.state === 'rejected')
    return `Approval rejected by ${known.decidedBy ?? 'an approver'}${known.reason ? `: ${known.reason}` : ''}`;
  return `Approval void: ${known.reason ?? 'the upload was voided'}`;
}
