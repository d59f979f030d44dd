/*
 * Team mode's send gate: the upload flow's seam (upload/sendGate.ts) over the team database. The
 * database in force is asked for at each use, as Settings may change it while the app runs; with
 * none, or for an upload submitted to another one, the gate answers as the local gate does.
 */
import { randomUUID } from 'node:crypto';
import { DeskFailure } from '../../../../shared/result';
import type { LedgerGroup, LedgerIntent } from '../../ledger/ledgerShapes';
import { localSendGate, sentFromHere } from '../../upload/localSendGate';
import type { GateAnswer, SendGate, SendGateHost, SendGates, ServiceInUse } from '../../upload/sendGate';
import type { TeamDatabase } from '../teamTypes';
import { environmentKeyOf } from '../teamUploads';
import { noteTeamState } from './approvalState';
import { giveBackEndedCorrections } from './correctionGiveBack';
import { bulkMoved, giveBackRefusedRows, publishBulk, refusalKnown } from './intentNews';
import { releaseCheck } from './releaseCheck';
import { teamCall } from './teamCall';
import { teamSubmission } from './teamSubmission';
import { takeOver, useStoredBytes } from './uploadFiles';

type TeamInForce = () => TeamDatabase | null;

export class TeamSendGate implements SendGate {
  /** Uploads whose files this run stored for the approver who sends them. */
  private readonly filesStored = new Set<string>();
  /** Corrections of ended uploads already given back (or found not held), this run. */
  private readonly settledClaims = new Set<string>();
  /** Who holds this run's follow leases. */
  private readonly holder: string;

  constructor(
    private readonly host: SendGateHost,
    private readonly team: TeamInForce,
    private readonly computer?: string,
  ) {
    this.holder = `${computer ?? 'computer'}/${process.pid}/${randomUUID().slice(0, 8)}`;
  }

  async sentElsewhere(service: ServiceInUse, fingerprints: readonly string[], exceptUpload?: string) {
    const team = this.team();
    if (!team) return localSendGate.sentElsewhere(service, fingerprints, exceptUpload);
    return teamCall(() => team.sentElsewhere(environmentKeyOf(service), fingerprints, exceptUpload));
  }

  begin() {
    const team = this.team();
    return team ? teamSubmission(this.host.ctx, team, this.computer, this.filesStored) : null;
  }

  async beforeSend(group: LedgerGroup): Promise<GateAnswer> {
    const team = this.team();
    if (sentFromHere(group)) {
      // Marked sent already (a send cut short): what goes is still the stored, approved bytes.
      if (team && group.approval && team.server === group.approval.server)
        await useStoredBytes(this.host.ctx, team, group, this.filesStored).catch(() => undefined);
      return { verdict: 'go' };
    }
    // Only the database it was submitted to knows its approval: another one must not stop it.
    if (!team || team.server !== group.approval?.server) return localSendGate.beforeSend(group);
    return releaseCheck(this.host, team, group, this.filesStored);
  }

  /**
   * The upload was stopped before any byte of it reached the service (its file to send was not the
   * approved one, or could not be read): the team database records it as not sent, with the reason,
   * and gives its rows back once. Best effort: unheard now, the upload stays "sent" for the team.
   */
  async nothingSent(group: LedgerGroup, reason: string): Promise<void> {
    const team = this.team();
    const approval = group.approval;
    if (!team || !approval || team.server !== approval.server || approval.state !== 'sent') return;
    if (approval.sendsHere === false) return;
    try {
      const known = await team.unmarkSent(group.id, reason);
      await noteTeamState(this.host.ctx, this.host.ctx.ledger.group(group.id) ?? group, known);
    } catch {
      // Refused (a bulk of it was recorded) or unreachable: it stays sent for the team.
    }
  }

  intentSaved(group: LedgerGroup, before: LedgerIntent, next: LedgerIntent): void {
    const team = this.team();
    if (!team) return;
    if (refusalKnown(before, next)) {
      giveBackRefusedRows(team, group, next);
      // The corrections its refused rows claimed too (a resend claims them again); the next resume
      // retries what the team database did not hear now.
      void giveBackEndedCorrections(this.host.ctx.ledger, team, new Set([group.id])).catch(() => undefined);
    }
    if (bulkMoved(before, next)) void publishBulk(this.host.ctx, team, group, next);
  }

  /**
   * One computer follows an upload at a time (a lease in the team database, renewed at each poll).
   * Best effort: without an answer from the database this computer follows anyway, as following
   * only reads the service.
   */
  async mayFollow(intent: LedgerIntent): Promise<boolean> {
    const team = this.team();
    if (!team) return true;
    try {
      return await team.lease(leaseKey(intent), this.holder, this.host.ctx.poll.maxMs * 3);
    } catch {
      return true;
    }
  }

  followed(intent: LedgerIntent): void {
    const team = this.team();
    if (team) void team.releaseLease(leaseKey(intent), this.holder).catch(() => undefined);
  }

  async edited(group: LedgerGroup, reason: string): Promise<LedgerGroup> {
    const team = this.team();
    if (!team) return group;
    const known = await team.voidUpload(group.id, reason).catch(() => null);
    return known ? noteTeamState(this.host.ctx, group, known) : group;
  }

  /** Best effort: a team database out of reach is asked again at the next resume. */
  async giveBackClaims(only: readonly string[] | null): Promise<void> {
    const team = this.team();
    if (!team) return;
    try {
      const settled = await giveBackEndedCorrections(
        this.host.ctx.ledger,
        team,
        only ? new Set(only) : null,
        this.settledClaims,
      );
      for (const key of settled) this.settledClaims.add(key);
    } catch {
      // Kept "being corrected" until the next try: never a second payment.
    }
  }

  /** The approver sends: approved uploads this login is to send, not on this computer yet. */
  async takeOverApproved(): Promise<void> {
    const team = this.team();
    if (!team) return;
    let toSend;
    try {
      toSend = await team.uploadsToSend();
    } catch {
      return;
    }
    const { ctx } = this.host;
    for (const known of toSend) {
      if (ctx.ledger.group(known.id)) continue;
      await this.host.serially(() => takeOver(ctx, team, known)).catch(() => undefined);
    }
  }

  async toSend(uploadId: string): Promise<LedgerGroup> {
    const team = this.team();
    if (!team) return localSendGate.toSend(uploadId);
    const group = this.host.ctx.ledger.group(uploadId);
    if (group) return group;
    const known = await teamCall(() => team.upload(uploadId));
    if (!known) throw new DeskFailure('NOT_FOUND', `The team database has no upload ${uploadId}.`);
    return takeOver(this.host.ctx, team, known);
  }
}

function leaseKey(intent: LedgerIntent): string {
  return `follow:${intent.serviceId ?? intent.attemptId}`;
}

/** The gates of team mode: the team's whenever a team database may be in force. */
export function teamSendGates(team: TeamInForce, computer?: string): SendGates {
  return {
    inForce: () => team() !== null,
    async anythingToTakeOver() {
      const current = team();
      return current ? (await current.uploadsToSend()).length > 0 : false;
    },
    async voidApprovals(uploadIds, reason) {
      const current = team();
      if (!current) return;
      for (const id of uploadIds) await current.voidUpload(id, reason);
    },
    open: (host) => new TeamSendGate(host, team, computer),
  };
}
