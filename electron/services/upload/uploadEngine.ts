import { randomUUID } from 'node:crypto';
import { count, plural } from '../../../shared/i18n';
import type { ChannelInput, ChannelResponse } from '../../../shared/contract';
import type { IntentView, UploadView } from '../../../shared/contract/uploadChannels';
import { DeskFailure } from '../../../shared/result';
import type { LedgerGroup } from '../ledger/ledgerShapes';
import { admit, checkReplacements, duplicateFlags, newRowsOf, replacementsOf } from './admission';
import { serviceInUse, type UploadBasics } from './basics';
import { saveIntent, type UploadContext } from './context';
import { IntentFollower, needsFollowing } from './follower';
import { GroupSender } from './groupSender';
import { allSettled, stopGroup, unsent, waitsOnTeam } from './ledgerGroups';
import { localSendGates } from './localSendGate';
import { planParts, totalsOf, validateWorkspace, type ReadyRow, type ValidatedWorkspace } from './prepare';
import { recordClaimed } from './recorder';
import { errorsOf } from './repair';
import { intentOrThrow, rowsToResend } from './resendRows';
import { ResumeLoop } from './resumeLoop';
import type { SendGates, UploadSubmission } from './sendGate';
import { PartSender } from './sender';
import { KeyedLocks, SerialQueue } from './serialWork';
import { UploadNotices } from './uploadNotices';
import { intentView, uploadView } from './views';

/**
 * The upload flow behind the channels: validate, record, pass the send gate, send, follow, repair.
 * Starts and resends are serialized, and each upload is sent under its own lock, so no row is ever
 * in two sends at once; everything that was promised is in the ledger before the service hears of it.
 */
export class UploadEngine {
  private readonly ctx: UploadContext;
  private readonly notices: UploadNotices;
  private readonly follower: IntentFollower;
  private readonly groups: GroupSender;
  private readonly groupLocks = new KeyedLocks();
  private readonly starts = new SerialQueue();
  private readonly resumes: ResumeLoop;
  private closed = false;

  constructor(basics: UploadBasics, gates: SendGates = localSendGates) {
    this.resumes = new ResumeLoop(
      () => this.resumePass(),
      basics.poll,
      () => basics.environments.maintenance.holdDelay(basics.poll.maxMs),
    );
    const gate = gates.open({
      ctx: basics,
      follow: (intent) => this.follower.follow(intent, 0),
      scheduleResume: () => this.scheduleResume(),
      serially: (work) => this.starts.run(work),
    });
    const ctx: UploadContext = { ...basics, gate };
    this.ctx = ctx;
    this.notices = new UploadNotices(ctx);
    this.follower = new IntentFollower(ctx, (intent) => this.notices.finished(intent));
    const sender = new PartSender(
      ctx,
      (intent) => this.follower.follow(intent),
      (group, part, stage, done, total) =>
        this.notices.progress(group.workspaceId, group.id, part, group.parts.length, stage, done, total),
    );
    this.groups = new GroupSender(ctx, sender, this.groupLocks, (decision) => this.scheduleResume(decision));
  }

  async preview({
    workspaceId,
    resendIntentId,
  }: ChannelInput<'upload.preview'>): Promise<ChannelResponse<'upload.preview'>> {
    const workspace = await this.ctx.workspaces.read(workspaceId);
    // A resend sends only the failed bulk's rows that have no donation: the preview says exactly those.
    const wanted = resendIntentId ? (await rowsToResend(this.ctx, resendIntentId)).wanted : undefined;
    const validated = await validateWorkspace(workspace, wanted);
    const duplicates = resendIntentId ? [] : await duplicateFlags(this.ctx, validated.ready, true);
    const partsOf = async (rows: readonly ReadyRow[]) =>
      (
        await planParts(
          rows.map((r) => r.donation),
          this.ctx.limits,
        )
      ).length;
    // What "send only the new rows" would send, so the dialog shows and the team's rule weighs that.
    const fresh = duplicates.length ? newRowsOf(validated.ready, duplicates) : null;
    return {
      rows: wanted ? validated.ready.length + validated.invalid.length : validated.workspace.rows.length,
      valid: validated.ready.length,
      invalid: validated.invalid.length,
      totals: validated.totals,
      duplicates,
      parts: await partsOf(validated.ready),
      mappingProblems: validated.mappingProblems,
      replacements: replacementsOf(validated.ready).length,
      onlyNew: fresh && {
        valid: fresh.length,
        totals: totalsOf(fresh.map((r) => r.donation)),
        parts: fresh.length ? await partsOf(fresh) : 0,
      },
    };
  }

  start(input: ChannelInput<'upload.start'>): Promise<ChannelResponse<'upload.start'>> {
    return this.starts.run(async () => {
      // The upload's id exists from the first progress event, so the renderer can follow it throughout.
      const uploadId = randomUUID();
      // Prepared in a call of its own: the workspace's rows and the donations made from them are let
      // go before the parts are sent (hundreds of megabytes for a wide workspace).
      const group = await this.prepareStart(input, uploadId);
      const problems = await this.groups.send(group);
      await this.giveBackIfStopped(group.id);
      return { uploadId: group.id, upload: this.view(group.id), problems };
    });
  }

  /** Validates, admits and records a new upload (and submits it, in team mode): ready to send. */
  private async prepareStart(input: ChannelInput<'upload.start'>, uploadId: string): Promise<LedgerGroup> {
    const validated = await validateWorkspace(
      await this.ctx.workspaces.read(input.workspaceId),
      undefined,
      (done, total) => this.notices.progress(input.workspaceId, uploadId, 0, 1, 'validating', done, total),
    );
    const { rows, duplicates } = await admit(
      this.ctx,
      validated,
      input.skipInvalid,
      input.confirmDuplicates,
      undefined,
      input.skipDuplicates,
    );
    await checkReplacements(this.ctx, rows, uploadId);
    const submission = this.ctx.gate.begin();
    let group = await this.record(validated, rows, null, uploadId, submission);
    if (submission) {
      // Only flagged rows were confirmed (admit refused the rest): those may go again.
      const flagged = new Set(duplicates.map((d) => d.rowKey));
      const confirmed =
        input.confirmDuplicates === 'all'
          ? 'all'
          : new Set(rows.filter((r) => flagged.has(r.key)).map((r) => r.fingerprint));
      group = await submission.submit(group, this.submitted(validated, rows, confirmed, flagged.size));
    }
    return group;
  }

  resend(input: ChannelInput<'upload.resend'>): Promise<ChannelResponse<'upload.resend'>> {
    return this.starts.run(async () => {
      const { failed, wanted } = await rowsToResend(this.ctx, input.intentId);
      const group = this.ctx.ledger.group(failed.groupId) as LedgerGroup;
      const workspace = await this.ctx.workspaces.read(group.workspaceId);
      const validated = await validateWorkspace(workspace, wanted);
      const gone = wanted.size - validated.ready.length - validated.invalid.length;
      const { rows } = await admit(this.ctx, validated, input.skipInvalid, undefined, group.id);
      const correctedId = randomUUID();
      await checkReplacements(this.ctx, rows, correctedId);
      const submission = this.ctx.gate.begin();
      let corrected = await this.record(validated, rows, failed.serviceId, correctedId, submission);
      // The failed bulk's own rows are claimed by its upload: this one finishes it, so they may go again.
      if (submission) {
        const confirmed = new Set(rows.map((r) => r.fingerprint));
        corrected = await submission.submit(corrected, this.submitted(validated, rows, confirmed, 0));
      }
      await saveIntent(this.ctx, failed, {
        correctedByUpload: corrected.id,
        note: 'rejected rows sent again in a later upload',
      });
      const problems = await this.groups.send(corrected);
      await this.giveBackIfStopped(corrected.id);
      if (gone > 0) {
        problems.unshift(
          `${count(gone, 'row')} of the failed bulk ${plural(gone, { one: 'is', other: 'are' })} no longer in the workspace and ${plural(gone, { one: 'was', other: 'were' })} not sent.`,
        );
      }
      return { uploadId: corrected.id, upload: this.view(corrected.id), problems };
    });
  }

  private record(
    validated: ValidatedWorkspace,
    rows: ValidatedWorkspace['ready'],
    corrects: string | null,
    id: string,
    submission: UploadSubmission | null,
  ): Promise<LedgerGroup> {
    const workspaceId = validated.workspace.id;
    return recordClaimed(
      this.ctx,
      validated,
      rows,
      corrects,
      id,
      submission,
      (part, parts, stage, done, total) =>
        this.notices.progress(workspaceId, id, part, parts, stage, done, total),
    );
  }

  private submitted(
    validated: ValidatedWorkspace,
    rows: ValidatedWorkspace['ready'],
    confirmed: ReadonlySet<string> | 'all',
    alreadyOut: number,
  ) {
    const warnings = validated.workspace.source.warnings ?? [];
    return { rows, warnings, leftOut: validated.invalid.length, confirmed, alreadyOut };
  }

  /**
   * Team mode, the approver's computer: sends an upload this login approved when the team's rule
   * says the approver sends (after "Approve and send", or `donation-desk approve`).
   */
  sendApproved(uploadId: string): Promise<ChannelResponse<'upload.start'>> {
    return this.starts.run(async () => {
      const group = await this.ctx.gate.toSend(uploadId);
      const problems = await this.groups.send(group);
      return { uploadId, upload: this.view(uploadId), problems };
    });
  }

  /**
   * An edit of a workspace whose upload waits for approval, or is approved and not sent yet: that
   * approval no longer holds. The gate hears of it (team mode voids it) and it is stopped here.
   */
  async workspaceEdited(workspaceId: string, version: number): Promise<void> {
    const open = this.ctx.ledger
      .allGroups()
      .filter(
        (g) =>
          g.workspaceId === workspaceId &&
          !g.stopped &&
          g.approval &&
          ['submitting', 'waiting', 'approved'].includes(g.approval.state),
      );
    if (open.length === 0) return;
    for (const group of open) {
      await this.groupLocks.with(group.id, async () => {
        const current = this.ctx.ledger.group(group.id) ?? group;
        if (current.stopped || current.approval?.state === 'sent' || !unsent(this.ctx.ledger, current))
          return;
        const at = new Date(this.ctx.now()).toISOString();
        const reason = `the workspace was edited after it was submitted for approval (version ${version}, ${at})`;
        const noted = await this.ctx.gate.edited(current, reason);
        await stopGroup(this.ctx, noted, `Approval void: ${reason}`);
      });
    }
    // The database gave its corrections back with the void; if it could not be reached, now or later.
    await this.ctx.gate.giveBackClaims(open.map((g) => g.id));
  }

  /** An upload stopped before it could create anything gives its corrections back. */
  private async giveBackIfStopped(groupId: string): Promise<void> {
    if (this.ctx.ledger.group(groupId)?.stopped) await this.ctx.gate.giveBackClaims([groupId]);
  }

  private view(groupId: string): UploadView {
    const group = this.ctx.ledger.group(groupId);
    if (!group) throw new DeskFailure('NOT_FOUND', 'That upload is not in the ledger.');
    return uploadView(group, this.ctx.ledger.allIntents());
  }

  list(): UploadView[] {
    const intents = this.ctx.ledger.allIntents();
    return this.ctx.ledger
      .allGroups()
      .map((g) => uploadView(g, intents))
      .reverse();
  }

  get(id: string): IntentView {
    const intent = intentOrThrow(this.ctx.ledger, id);
    return intentView(this.ctx.ledger.group(intent.groupId) as LedgerGroup, intent);
  }

  async refresh(id: string): Promise<IntentView> {
    const intent = intentOrThrow(this.ctx.ledger, id);
    if (needsFollowing(intent)) await this.follower.pollNow(intent.attemptId);
    return this.get(id);
  }

  async errors(id: string): Promise<ChannelResponse<'upload.errors'>> {
    let intent = intentOrThrow(this.ctx.ledger, id);
    if (intent.state !== 'ERROR' && needsFollowing(intent)) {
      await this.follower.pollNow(intent.attemptId);
      intent = intentOrThrow(this.ctx.ledger, id);
    }
    if (intent.state !== 'ERROR') {
      throw new DeskFailure('NOT_IN_ERROR', `Bulk ${id} is ${intent.state}; there is no error file.`);
    }
    return errorsOf(this.ctx, this.ctx.ledger.group(intent.groupId) as LedgerGroup, intent);
  }

  /** Whether every intent in the ledger has reached an end the service will not change. */
  settled(): boolean {
    return allSettled(this.ctx.ledger);
  }

  /** Resumes everything unfinished in the ledger: sends parts not yet at the service, follows the rest. */
  resume(): Promise<void> {
    return this.resumes.now();
  }

  /** One pass of resume: true when everything unfinished went as far as it can for now. */
  private async resumePass(): Promise<boolean> {
    if (this.closed) return false;
    // Corrections claimed by uploads that ended creating nothing, not given back when they ended.
    await this.ctx.gate.giveBackClaims(null);
    // The approver sends: uploads this login approved and is to send, not on this computer yet.
    await this.ctx.gate.takeOverApproved();
    // Nothing unfinished: do not even start the Offline sandbox or ask for a token.
    if (this.settled()) return false;
    let env: { id: string; baseUrl: string; emulated: boolean };
    try {
      env = await serviceInUse(this.ctx);
    } catch {
      this.scheduleResume();
      return false;
    }
    let failed = false;
    for (const group of this.ctx.ledger.allGroups()) {
      if (this.closed) return false;
      if (group.stopped) continue;
      // Never send an upload to another service than the one it was prepared for.
      if (group.environment !== env.id || (!env.emulated && group.baseUrl !== env.baseUrl)) continue;
      for (const intent of this.ctx.ledger.intentsOf(group.id))
        if (needsFollowing(intent)) this.follower.follow(intent, 0);
      const problems = await this.groups.send(group).catch(() => ['failed']);
      if (problems.length) failed = true;
      // Still waiting for an approver, or for the bulks another computer sent: ask again less and
      // less often (up to the longest poll interval), not every few seconds for as long as it waits.
      if (waitsOnTeam(this.ctx.ledger, this.ctx.ledger.group(group.id))) failed = true;
    }
    // And those of uploads this pass stopped (the upload host refused the file).
    await this.ctx.gate.giveBackClaims(null);
    return !failed;
  }

  /** `decision`: only an approver's decision is awaited (asked again after PollPolicy.decisionMs). */
  private scheduleResume(decision = false): void {
    if (!this.closed) this.resumes.later(decision ? this.ctx.poll.decisionMs : undefined);
  }

  ledger(): UploadContext['ledger'] {
    return this.ctx.ledger;
  }

  async close(): Promise<void> {
    this.closed = true;
    const resumes = this.resumes.close();
    await this.follower.close();
    await resumes;
    await this.starts.idle();
    await this.groupLocks.idle();
  }
}
