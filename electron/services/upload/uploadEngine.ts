import { randomUUID } from 'node:crypto';
import { count, plural } from '../../../shared/i18n';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChannelInput, ChannelResponse } from '../../../shared/contract';
import type { IntentView, UploadView } from '../../../shared/contract/uploadChannels';
import { REPLACES_KEY } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import { backoffDelay } from '../api/backoff';
import { writeFileAtomic } from '../storage/atomicFile';
import { sentFingerprints } from '../ledger/duplicateGuard';
import type { LedgerApproval, LedgerGroup, LedgerIntent, LedgerPart } from '../ledger/ledgerSchema';
import { SENT_STATES } from '../ledger/ledgerSchema';
import type { SentElsewhere, TeamDatabase, TeamUpload } from '../team/teamTypes';
import { bulkFileSha256, environmentKeyOf, reviewFacts, totalsOverParts } from '../team/teamUploads';
import { bulkFileSchema, fingerprintDonation, type DonationAttributes } from '../../../shared/donation';
import { gunzipText, gzipBulkFile, sha256 } from './compress';
import { saveIntent, type UploadContext } from './context';
import { IntentFollower, applyRemote, needsFollowing } from './follower';
import { planParts, totalsOf, validateWorkspace, type ReadyRow, type ValidatedWorkspace } from './prepare';
import { giveBackEndedCorrections } from './correctionClaims';
import { errorsOf, rowsWithDonation } from './repair';
import { PartSender } from './sender';
import { intentView, uploadView } from './views';

/** The rows of an upload that replace a declined donation (metadata ddReplaces). */
export function replacementsOf(
  rows: readonly ReadyRow[],
): Array<{ rowKey: number; rowNumber: number | null; donationId: string }> {
  const found: Array<{ rowKey: number; rowNumber: number | null; donationId: string }> = [];
  for (const row of rows) {
    const donationId = row.donation.metadata?.[REPLACES_KEY];
    if (donationId) found.push({ rowKey: row.key, rowNumber: row.rowNumber, donationId });
  }
  return found;
}

type Stage = 'validating' | 'building' | 'compressing' | 'creating-intent' | 'uploading' | 'uploaded';

/**
 * The upload flow behind the channels: validate, build and compress, record, send, follow, repair.
 * Starts and resends are serialized, and each upload is sent under its own lock, so no row is ever
 * in two sends at once; everything that was promised is in the ledger before the service hears of it.
 */
export class UploadEngine {
  private readonly follower: IntentFollower;
  private readonly sender: PartSender;
  private readonly groupLocks = new Map<string, Promise<unknown>>();
  private startQueue: Promise<unknown> = Promise.resolve();
  private resumeTimer: NodeJS.Timeout | null = null;
  private resumeFailures = 0;
  private resumeRun: Promise<void> | null = null;
  private readonly notified = new Set<string>();
  /** Why the team database refused to release an approved upload, for the caller that asked. */
  private readonly gateProblems = new Map<string, string>();
  /** Team mode: corrections of ended uploads already given back (or found not held), this run. */
  private readonly settledClaims = new Set<string>();
  /** Team mode: uploads whose files this run stored for the approver who sends them. */
  private readonly filesStored = new Set<string>();
  private closed = false;

  constructor(private readonly ctx: UploadContext) {
    this.follower = new IntentFollower(ctx, (intent) => this.finished(intent));
    this.sender = new PartSender(
      ctx,
      (intent) => this.follower.follow(intent),
      (group, part, stage, done, total) =>
        this.progress(group.workspaceId, group.id, part, group.parts.length, stage, done, total),
    );
  }

  private progress(
    workspaceId: string,
    uploadId: string,
    part: number,
    parts: number,
    stage: Stage,
    done: number,
    total: number | null,
  ): void {
    this.ctx.events.emit('upload.progress', { workspaceId, uploadId, part, parts, stage, done, total });
    this.ctx.events.emit('job.progress', { jobId: uploadId, kind: 'upload', stage, done, total });
  }

  private finished(intent: LedgerIntent): void {
    if (this.notified.has(intent.attemptId)) return;
    this.notified.add(intent.attemptId);
    const group = this.ctx.ledger.group(intent.groupId);
    const name = group?.workspaceName ?? 'Upload';
    if (group) {
      const view = uploadView(group, this.ctx.ledger.allIntents());
      if (view.state === 'processed' || view.state === 'error') {
        this.ctx.events.emit('job.status', {
          jobId: group.id,
          kind: 'upload',
          status: view.state === 'processed' ? 'succeeded' : 'failed',
          message:
            view.state === 'processed'
              ? `${count(view.rows, 'donation')} processed.`
              : 'The service rejected part of the upload.',
        });
      }
    }
    if (intent.state === 'PROCESSED') {
      this.ctx.platform.notify?.(
        'Upload processed',
        `${name}: ${count(intent.counts.accepted ?? group?.parts[intent.part]?.rowKeys.length ?? 0, 'donation')} accepted.`,
      );
    } else if (intent.state === 'ERROR') {
      this.ctx.platform.notify?.(
        'Upload needs attention',
        `${name}: the service rejected bulk ${intent.serviceId ?? ''}. Open it to see the errors.`,
      );
    }
  }

  private withGroupLock<T>(groupId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.groupLocks.get(groupId) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.groupLocks.set(
      groupId,
      next.catch(() => undefined),
    );
    return next;
  }

  private serialStart<T>(work: () => Promise<T>): Promise<T> {
    const next = this.startQueue.then(work, work);
    this.startQueue = next.catch(() => undefined);
    return next;
  }

  private async environmentKey(): Promise<{ id: string; baseUrl: string; emulated: boolean }> {
    const { info } = await this.ctx.environments.resolve();
    return { id: info.id, baseUrl: info.baseUrl, emulated: info.emulated };
  }

  /** Row keys already out (or on their way) by fingerprint, for the duplicate guard. */
  private async duplicates(
    ready: readonly ReadyRow[],
    teamOptional = false,
    /** A resend: the failed upload's own claims on its rows are not duplicates. */
    exceptUpload?: string,
  ): Promise<ChannelResponse<'upload.preview'>['duplicates']> {
    const service = await this.ctx.environments.describe();
    const sent = sentFingerprints(this.ctx.ledger.allGroups(), this.ctx.ledger.allIntents(), service);
    const team = this.ctx.team?.() ?? null;
    let elsewhere = new Map<string, SentElsewhere>();
    if (team) {
      try {
        elsewhere = await this.teamCall(() =>
          team.sentElsewhere(
            environmentKeyOf(service),
            ready.filter((r) => !sent.has(r.fingerprint)).map((r) => r.fingerprint),
            exceptUpload,
          ),
        );
      } catch (e) {
        // A preview still says what this computer knows; the upload itself asks the team again.
        if (!teamOptional) throw e;
      }
    }
    const flags: ChannelResponse<'upload.preview'>['duplicates'] = [];
    for (const row of ready) {
      const hit = sent.get(row.fingerprint);
      if (hit)
        flags.push({ rowKey: row.key, row: row.rowNumber, intentId: hit.intentId, sentAt: hit.sentAt });
      const other = hit ? undefined : elsewhere.get(row.fingerprint);
      if (other)
        flags.push({
          rowKey: row.key,
          row: row.rowNumber,
          intentId: other.uploadId,
          sentAt: other.at,
          sentBy: other.sentBy,
          uploadId: other.uploadId,
          computer: other.computer,
        });
    }
    return flags;
  }

  /**
   * A call to the team database: what it refuses comes back as the DeskFailure it threw; anything
   * else (the server cannot be reached) says so plainly, since sending needs the team database.
   */
  private async teamCall<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof DeskFailure) throw e;
      throw new DeskFailure(
        'TEAM_UNAVAILABLE',
        `The team database could not be reached (${e instanceof Error ? e.message : String(e)}). Preparing and checking work without it; uploading waits until it answers.`,
      );
    }
  }

  async preview({
    workspaceId,
    resendIntentId,
  }: ChannelInput<'upload.preview'>): Promise<ChannelResponse<'upload.preview'>> {
    const workspace = await this.ctx.workspaces.read(workspaceId);
    // A resend sends only the failed bulk's rows that have no donation: the preview says exactly those.
    const wanted = resendIntentId ? (await this.rowsToResend(resendIntentId)).wanted : undefined;
    const validated = await validateWorkspace(workspace, wanted);
    return {
      rows: wanted ? validated.ready.length + validated.invalid.length : validated.workspace.rows.length,
      valid: validated.ready.length,
      invalid: validated.invalid.length,
      totals: validated.totals,
      duplicates: resendIntentId ? [] : await this.duplicates(validated.ready, true),
      parts: (
        await planParts(
          validated.ready.map((r) => r.donation),
          this.ctx.limits,
        )
      ).length,
      mappingProblems: validated.mappingProblems,
      replacements: replacementsOf(validated.ready).length,
    };
  }

  /**
   * The failed intent (read again from the service when it may have moved on) and the rows of its
   * part with no donation yet, as the service says now: what a resend may send.
   */
  private async rowsToResend(intentId: string): Promise<{ failed: LedgerIntent; wanted: Set<number> }> {
    let failed = this.intentOrThrow(intentId);
    const group = this.ctx.ledger.group(failed.groupId) as LedgerGroup;
    if (group.workspaceId === '') {
      throw new DeskFailure(
        'NOT_HERE',
        `Bulk ${intentId} was sent from this computer for ${group.approval?.preparer ?? 'a colleague'}, whose workspace holds its rows: they fix and send them again from their computer.`,
      );
    }
    if (failed.state !== 'ERROR' && failed.serviceId) {
      failed = await applyRemote(this.ctx, failed, await this.ctx.client.getIntent(failed.serviceId));
    }
    if (failed.state !== 'ERROR') {
      throw new DeskFailure(
        'NOT_IN_ERROR',
        `Bulk ${intentId} is ${failed.state}; only a failed bulk can be corrected.`,
      );
    }
    if (failed.correctedByUpload) {
      throw new DeskFailure(
        'ALREADY_CORRECTED',
        `Bulk ${intentId} was already corrected by upload ${failed.correctedByUpload}; follow that one instead.`,
      );
    }
    // Ask the service again which rows got a donation: what decides what is safe to send.
    const withDonation = await rowsWithDonation(this.ctx, group, failed);
    failed = await saveIntent(this.ctx, failed, { donationRowKeys: withDonation });
    const part = group.parts[failed.part];
    if (!part) throw new DeskFailure('NOT_FOUND', 'That part of the upload is not in the ledger.');
    const done = new Set(withDonation);
    const wanted = new Set(part.rowKeys.filter((k) => !done.has(k)));
    if (wanted.size === 0)
      throw new DeskFailure('NOTHING_TO_SEND', 'Every row of this bulk already has a donation.');
    return { failed, wanted };
  }

  /** Refuses what must not be sent: mapping errors, invalid rows (unless skipped), unconfirmed duplicates. */
  private async admit(
    validated: ValidatedWorkspace,
    skipInvalid: boolean | undefined,
    confirm: 'all' | number[] | undefined,
    resending?: string,
  ): Promise<{ rows: ReadyRow[]; duplicates: ChannelResponse<'upload.preview'>['duplicates'] }> {
    if (validated.mappingProblems.length) {
      throw new DeskFailure('MAPPING_INCOMPLETE', validated.mappingProblems.join(' '), {
        problems: validated.mappingProblems,
      });
    }
    if (validated.invalid.length && !skipInvalid) {
      const rows = validated.invalid.slice(0, 10).map((r) => r.rowNumber ?? `new row ${r.key}`);
      throw new DeskFailure(
        'INVALID_ROWS',
        `${count(validated.invalid.length, 'row')} ${plural(validated.invalid.length, { one: 'has', other: 'have' })} errors (for example row ${rows.join(', ')}). Fix them, or choose to upload without them.`,
        { rowKeys: validated.invalid.map((r) => r.key) },
      );
    }
    const flags = await this.duplicates(validated.ready, false, resending);
    const confirmed = confirm === 'all' ? null : new Set(confirm ?? []);
    const unconfirmed = confirmed ? flags.filter((f) => !confirmed.has(f.rowKey)) : [];
    if (unconfirmed.length) {
      const first = unconfirmed[0] as (typeof unconfirmed)[number];
      const where = first.sentBy
        ? `by ${first.sentBy} on ${first.sentAt.slice(0, 10)} (upload ${first.uploadId}${first.computer ? ` from ${first.computer}` : ''})`
        : `in bulk ${first.intentId} on ${first.sentAt.slice(0, 10)}`;
      throw new DeskFailure(
        'DUPLICATES',
        `${count(unconfirmed.length, 'row')} ${plural(unconfirmed.length, { one: 'was', other: 'were' })} already sent (for example row ${first.row ?? first.rowKey} ${where}). Confirm them to send them again, or remove them.`,
        { duplicates: unconfirmed },
      );
    }
    if (validated.ready.length === 0) {
      throw new DeskFailure('NOTHING_TO_SEND', 'There are no valid rows to upload.');
    }
    return { rows: validated.ready, duplicates: flags };
  }

  /**
   * Rows that correct declined donations may go only while those are open and in no other upload:
   * one declined donation, one replacement. A resend of such rows after a failed bulk is asked again:
   * the failed bulk gave their claims back once the service said it created nothing for them.
   */
  private async checkReplacements(rows: readonly ReadyRow[], uploadId?: string): Promise<void> {
    const replaces = replacementsOf(rows);
    if (replaces.length === 0) return;
    if (!this.ctx.checkReplacements) {
      throw new DeskFailure(
        'REPLACEMENT_NOT_ALLOWED',
        `Row ${replaces[0]?.rowNumber ?? replaces[0]?.rowKey} carries metadata ${REPLACES_KEY}, which only corrections made from Reconcile may carry.`,
      );
    }
    await this.ctx.checkReplacements(replaces, uploadId);
  }

  /**
   * record(), after checkReplacements claimed the upload's corrections: when the upload cannot even
   * be recorded (a disk error, say), nothing was sent, so those claims are given back at once.
   */
  private async recordClaimed(
    validated: ValidatedWorkspace,
    rows: readonly ReadyRow[],
    corrects: string | null,
    id: string,
    team: TeamDatabase | null,
  ): Promise<LedgerGroup> {
    try {
      return await this.record(validated, rows, corrects, id, team);
    } catch (e) {
      const claimed = replacementsOf(rows).map((r) => r.donationId);
      if (team && claimed.length > 0 && !this.ctx.ledger.group(id)) {
        await team.giveBackUploadCorrections(id, claimed).catch(() => undefined);
      }
      throw e;
    }
  }

  /** An upload stopped before it could create anything gives its corrections back. */
  private async giveBackIfStopped(groupId: string): Promise<void> {
    if (this.ctx.ledger.group(groupId)?.stopped) await this.giveBackClaims([groupId]);
  }

  /**
   * Team mode: gives back the corrections claimed by uploads that surely created nothing for them
   * (see correctionClaims.ts); those of `only`, else of every upload in the ledger. Best effort: a
   * team database out of reach is asked again at the next resume.
   */
  async giveBackClaims(only: readonly string[] | null = null): Promise<void> {
    try {
      const settled = await giveBackEndedCorrections(
        this.ctx,
        only ? new Set(only) : null,
        this.settledClaims,
      );
      for (const key of settled) this.settledClaims.add(key);
    } catch {
      // Kept "being corrected" until the next try: never a second payment.
    }
  }

  /** Builds, compresses and keeps each part's file, then records the upload: from here on it will be sent. */
  private async record(
    validated: ValidatedWorkspace,
    rows: readonly ReadyRow[],
    corrects: string | null,
    id: string,
    team: TeamDatabase | null = null,
  ): Promise<LedgerGroup> {
    const env = await this.environmentKey();
    const workspaceId = validated.workspace.id;
    const donations = rows.map((r) => r.donation);
    const plan = await planParts(donations, this.ctx.limits);
    const parts: LedgerPart[] = [];
    await mkdir(join(this.ctx.ledger.dir, 'files'), { recursive: true });
    for (const [index, slice] of plan.entries()) {
      this.progress(workspaceId, id, index, plan.length, 'building', slice.start, donations.length);
      const partRows = rows.slice(slice.start, slice.end);
      const partDonations = donations.slice(slice.start, slice.end);
      const compressed = await gzipBulkFile(partDonations, (done, total) =>
        this.progress(workspaceId, id, index, plan.length, 'compressing', done, total),
      );
      const file = join('files', `${id}-${index}.json.gz`);
      await writeFileAtomic(join(this.ctx.ledger.dir, file), compressed.gz);
      parts.push({
        index,
        rowKeys: partRows.map((r) => r.key),
        rowNumbers: partRows.map((r) => r.rowNumber),
        fingerprints: partRows.map((r) => r.fingerprint),
        totals: totalsOf(partDonations),
        fileHash: compressed.sha256,
        fileBytes: compressed.gz.length,
        file,
      });
    }
    const replaces = replacementsOf(rows);
    const group: LedgerGroup = {
      id,
      workspaceId: validated.workspace.id,
      workspaceName: validated.workspace.name,
      createdAt: new Date(this.ctx.now()).toISOString(),
      environment: env.id,
      baseUrl: env.baseUrl,
      referenceKey: validated.referenceKey,
      parts,
      corrects,
      replaces: replaces.map(({ rowKey, donationId }) => ({ rowKey, donationId })),
      stopped: null,
      // Recorded before the team database hears of it: never sent while 'submitting'.
      approval: team
        ? {
            server: team.server,
            fileSha256: bulkFileSha256(parts.map((p) => p.fileHash)),
            needed: true,
            state: 'submitting',
            preparer: null,
            decidedBy: null,
            decidedAt: null,
            reason: null,
          }
        : null,
    };
    await this.ctx.ledger.putGroup(group);
    return group;
  }

  /**
   * Team mode: claims the upload's rows in the shared guard and submits it with what an approver
   * reviews. The database applies the team's rule and answers whether it waits for an approval.
   * Refused rows (claimed meanwhile by another upload) or an unreachable server stop the upload
   * before anything is sent.
   */
  private async submitToTeam(
    team: TeamDatabase,
    group: LedgerGroup,
    validated: ValidatedWorkspace,
    rows: readonly ReadyRow[],
    confirmed: ReadonlySet<string> | 'all',
    alreadyOut: number,
  ): Promise<LedgerGroup> {
    const approval = group.approval as LedgerApproval;
    const env = await this.environmentKey();
    const environmentKey = environmentKeyOf(env);
    try {
      const refused = await this.teamCall(() =>
        team.claimRows(
          group.id,
          environmentKey,
          rows.map((r) => r.fingerprint),
          confirmed,
        ),
      );
      if (refused.length) {
        const first = refused[0] as (typeof refused)[number];
        const row = rows.find((r) => r.fingerprint === first.fingerprint);
        throw new DeskFailure(
          'DUPLICATES',
          `${count(refused.length, 'row')} ${plural(refused.length, { one: 'was', other: 'were' })} already sent (for example row ${row?.rowNumber ?? row?.key ?? '?'} by ${first.sentBy} on ${first.at.slice(0, 10)} (upload ${first.uploadId} from ${first.computer})). Confirm them to send them again, or remove them.`,
          {
            duplicates: refused.map((r) => {
              const hit = rows.find((x) => x.fingerprint === r.fingerprint);
              return {
                rowKey: hit?.key ?? null,
                row: hit?.rowNumber ?? null,
                intentId: r.uploadId,
                sentAt: r.at,
                sentBy: r.sentBy,
                uploadId: r.uploadId,
                computer: r.computer,
              };
            }),
          },
        );
      }
      const submitted = await this.teamCall(() =>
        team.submit({
          id: group.id,
          workspaceName: group.workspaceName,
          environment: group.environment,
          environmentKey,
          computer: this.ctx.computer ?? 'unknown computer',
          fileSha256: approval.fileSha256,
          rows: rows.length,
          totals: totalsOverParts(group.parts),
          review: reviewFacts(
            rows.map((r) => r.donation),
            {
              createdAt: group.createdAt,
              alreadyOut,
              warnings: validated.workspace.source.warnings ?? [],
              leftOut: validated.invalid.length,
            },
          ),
        }),
      );
      const noted = await this.noteTeamState(group, submitted);
      // The approver sends it: the exact files go with the submission (asked again at each resume
      // while it waits, should the server not take them now).
      if (submitted.sender === 'approver') await this.storeFiles(team, noted).catch(() => undefined);
      return noted;
    } catch (e) {
      const reason = `Not submitted to the team database: ${e instanceof Error ? e.message : String(e)}`;
      await this.stopGroup(group, reason);
      // Corrections claimed for it are given back (the database gives back only the caller's own).
      if (group.replaces.length > 0) await team.voidUpload(group.id, reason).catch(() => null);
      throw e;
    }
  }

  /** Writes where the team's record of the upload stands into the local group. */
  private async noteTeamState(
    group: LedgerGroup,
    known: TeamUpload,
    sendsHere?: boolean,
  ): Promise<LedgerGroup> {
    const current = this.ctx.ledger.group(group.id) ?? group;
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
    await this.ctx.ledger.putGroup(next);
    if (before.state === 'waiting' && approval.state !== 'waiting') this.notifyDecision(next);
    return next;
  }

  /** Tells the preparer, once, what became of an upload that waited for an approver. */
  private notifyDecision(group: LedgerGroup): void {
    const a = group.approval as LedgerApproval;
    const by = a.decidedBy ?? 'an approver';
    const why = a.reason ? `: ${a.reason}` : '.';
    if ((a.state === 'approved' || a.state === 'sent') && a.sendsHere === false)
      this.ctx.platform.notify?.(
        'Upload approved',
        `${group.workspaceName}: approved by ${by}, who sends it from their computer.`,
      );
    else if (a.state === 'approved' || a.state === 'sent')
      this.ctx.platform.notify?.(
        'Upload approved',
        `${group.workspaceName}: approved by ${by}; sending it now.`,
      );
    else if (a.state === 'rejected')
      this.ctx.platform.notify?.('Upload rejected', `${group.workspaceName}: rejected by ${by}${why}`);
    else if (a.state === 'void') this.ctx.platform.notify?.('Approval void', `${group.workspaceName}${why}`);
  }

  private async stopGroup(group: LedgerGroup, reason: string): Promise<LedgerGroup> {
    const current = this.ctx.ledger.group(group.id) ?? group;
    if (current.stopped) return current;
    const next = { ...current, stopped: { at: new Date(this.ctx.now()).toISOString(), reason } };
    await this.ctx.ledger.putGroup(next);
    return next;
  }

  /** Whether some part of the upload has no file at the service yet. */
  private unsent(group: LedgerGroup): boolean {
    return group.parts.some((p) => {
      const current = this.ctx.ledger
        .intentsOf(group.id, p.index)
        .filter((i) => i.state !== 'abandoned')
        .at(-1);
      return !current || !SENT_STATES.has(current.state as never);
    });
  }

  /**
   * Team mode, right before anything is sent: the database marks the upload sent for exactly the
   * file approved, or refuses. Refused while it waits: nothing is sent and a later resume asks again.
   * Rejected or void: the upload is stopped with the reason and its rows no longer count as out.
   */
  private async teamGate(group: LedgerGroup): Promise<'go' | 'wait' | 'stopped' | 'elsewhere'> {
    const approval = group.approval as LedgerApproval;
    if (approval.sendsHere !== false && approval.state === 'sent') return 'go';
    const team = this.ctx.team?.() ?? null;
    // Only the database it was submitted to knows its approval: another one must not stop it.
    if (!team || team.server !== approval.server) {
      this.gateProblems.set(
        group.id,
        `Upload ${group.id} was submitted to the team database ${approval.server}, which this computer is not connected to now; it is not sent until it is.`,
      );
      return 'wait';
    }
    // Another computer sends it (the approver's, by the team's rule): never sent from here.
    if (approval.sendsHere === false) return this.sentElsewhere(team, group);
    try {
      const sent = await team.markSent(group.id, approval.fileSha256);
      await this.noteTeamState(group, sent);
      return 'go';
    } catch (refusal) {
      let known: TeamUpload | null;
      try {
        known = await team.upload(group.id);
      } catch {
        return 'wait';
      }
      if (!known) {
        await this.stopGroup(
          group,
          'The team database has no record of this upload, so it was not sent. Upload the workspace again.',
        );
        return 'stopped';
      }
      // Sent by another login or computer (mark_sent answers only the one that sent it), or to be
      // sent by the approver: this computer follows what they sent and never sends it itself.
      // (The approver's own copy of an upload it sends says sendsHere: true and waits like any other.)
      if (
        known.state === 'sent' ||
        (known.sender === 'approver' && known.state === 'approved' && approval.sendsHere !== true)
      ) {
        await this.noteTeamState(this.ctx.ledger.group(group.id) ?? group, known, false);
        return this.sentElsewhere(team, this.ctx.ledger.group(group.id) ?? group, known);
      }
      const noted = await this.noteTeamState(group, known);
      switch (known.state) {
        case 'rejected':
          await this.stopGroup(
            noted,
            `Approval rejected by ${known.decidedBy ?? 'an approver'}${known.reason ? `: ${known.reason}` : ''}`,
          );
          return 'stopped';
        case 'void':
          await this.stopGroup(noted, `Approval void: ${known.reason ?? 'the upload was voided'}`);
          return 'stopped';
        case 'approved':
          // Approved, yet refused: a file other than the one approved, or the server busy. Ask again later.
          this.gateProblems.set(
            group.id,
            refusal instanceof Error ? refusal.message : 'The team database refused to release it.',
          );
          return 'wait';
        default:
          return 'wait';
      }
    }
  }

  /**
   * Team mode, on a computer that does not send the upload (the preparer's, when the approver sends):
   * where it stands in the team database. Waiting: its files are stored if they were not yet.
   * Sent: the bulks the sending computer recorded are adopted here (see adoptBulks). Rejected or
   * void: stopped, as for an upload sent from here.
   */
  private async sentElsewhere(
    team: TeamDatabase,
    group: LedgerGroup,
    answer?: TeamUpload,
  ): Promise<'wait' | 'stopped' | 'elsewhere'> {
    let known: TeamUpload | null = answer ?? null;
    if (!known) {
      try {
        known = await team.upload(group.id);
      } catch {
        return 'wait';
      }
    }
    if (!known) {
      await this.stopGroup(group, 'The team database has no record of this upload.');
      return 'stopped';
    }
    const noted = await this.noteTeamState(group, known, false);
    switch (known.state) {
      case 'waiting':
        if (known.sender === 'approver') {
          try {
            await this.storeFiles(team, noted);
          } catch (e) {
            this.gateProblems.set(
              group.id,
              `The file could not be stored with the upload for the approver yet (${e instanceof Error ? e.message : String(e)}); it is tried again.`,
            );
          }
        }
        return 'wait';
      case 'approved':
        return 'wait';
      case 'sent':
        await this.adoptBulks(team, noted);
        return 'elsewhere';
      case 'rejected':
        await this.stopGroup(
          noted,
          `Approval rejected by ${known.decidedBy ?? 'an approver'}${known.reason ? `: ${known.reason}` : ''}`,
        );
        return 'stopped';
      default:
        await this.stopGroup(noted, `Approval void: ${known.reason ?? 'the upload was voided'}`);
        return 'stopped';
    }
  }

  /**
   * The approver sends it: each part's exact gzip file goes to the team database (idempotent; once
   * per run, not at every look while it waits).
   */
  private async storeFiles(team: TeamDatabase, group: LedgerGroup): Promise<void> {
    if (this.filesStored.has(group.id)) return;
    for (const part of group.parts) {
      const bytes = await readFile(join(this.ctx.ledger.dir, part.file));
      if (sha256(bytes) !== part.fileHash) {
        throw new DeskFailure(
          'LEDGER_FILE_MISSING',
          'The prepared file for this upload is missing or changed on disk, so it cannot go to the approver.',
        );
      }
      await this.teamCall(() => team.storeUploadFile(group.id, part.index, bytes));
    }
    this.filesStored.add(group.id);
  }

  /**
   * The bulks another computer of the team created for this upload become this computer's intents
   * (with the service's ids), and are followed from here too: the Uploads page shows where they
   * stand, a bulk in ERROR has its error file and its repair from this workspace, and Reconcile ties
   * their donations to this workspace's rows. Bulks not recorded yet are asked for at the next resume.
   */
  private async adoptBulks(team: TeamDatabase, group: LedgerGroup): Promise<void> {
    let bulks;
    try {
      bulks = await team.uploadBulks(group.id);
    } catch {
      this.scheduleResume();
      return;
    }
    const known = new Set(this.ctx.ledger.intentsOf(group.id).map((i) => i.serviceId));
    const who = group.approval?.sentBy ?? group.approval?.decidedBy ?? 'a colleague';
    const from = group.approval?.sentFrom ? ` from ${group.approval.sentFrom}` : '';
    for (const bulk of bulks) {
      if (known.has(bulk.bulkId) || !group.parts[bulk.part]) continue;
      const at = new Date(this.ctx.now()).toISOString();
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
      await this.ctx.ledger.putIntent(intent);
      this.ctx.events.emit('intent.updated', intentView(group, intent));
      this.follower.follow(intent, 0);
    }
    if (this.unsent(this.ctx.ledger.group(group.id) ?? group)) this.scheduleResume();
  }

  /**
   * Team mode, on the approver's computer: an approved upload this login is to send becomes an
   * upload of this computer's ledger, built from the exact files its preparer's computer stored
   * (each part's SHA-256 checked, and together the one approved). It has no workspace; its rows are
   * the files' donations in order.
   */
  private async takeOver(team: TeamDatabase, known: TeamUpload): Promise<LedgerGroup> {
    const existing = this.ctx.ledger.group(known.id);
    if (existing) return existing;
    if (known.sender !== 'approver' || known.state !== 'approved') {
      throw new DeskFailure(
        'NOT_TO_SEND',
        known.sender !== 'approver'
          ? `Upload ${known.id} is sent by ${known.preparer}, who prepared it.`
          : `Upload ${known.id} is ${known.state}: there is nothing to send.`,
      );
    }
    const env = await this.environmentKey();
    if (environmentKeyOf(env) !== known.environmentKey) {
      throw new DeskFailure(
        'WRONG_ENVIRONMENT',
        `Upload ${known.id} was prepared for the service “${known.environment}”; this computer uses “${env.id}” now. Choose that service in Settings, then send it again (donation-desk resume).`,
      );
    }
    const files = await this.teamCall(() => team.fetchUploadFile(known.id));
    const hashes = files.map((f) => sha256(f.bytes));
    const whole = files.every((f, i) => f.part === i && hashes[i] === f.sha256);
    if (files.length === 0 || !whole || bulkFileSha256(hashes) !== known.fileSha256) {
      throw new DeskFailure(
        'FILE_MISMATCH',
        `The file stored with upload ${known.id} is not the one approved (SHA-256 ${known.fileSha256}), so it is not sent. Ask ${known.preparer} to upload the workspace again.`,
      );
    }
    await mkdir(join(this.ctx.ledger.dir, 'files'), { recursive: true });
    const parts: LedgerPart[] = [];
    let key = 0;
    for (const f of files) {
      // A colleague's file, though the very one approved: read as any file from outside, checked.
      let donations: DonationAttributes[];
      try {
        donations = bulkFileSchema.parse(JSON.parse(await gunzipText(f.bytes))).data.map((d) => d.attributes);
      } catch {
        throw new DeskFailure(
          'FILE_MISMATCH',
          `Part ${f.part + 1} of upload ${known.id} is not a bulk file Donation Desk can read, so it is not sent. Reject it and ask ${known.preparer} to upload the workspace again.`,
        );
      }
      const file = join('files', `${known.id}-${f.part}.json.gz`);
      await writeFileAtomic(join(this.ctx.ledger.dir, file), f.bytes);
      const rowKeys = donations.map(() => ++key);
      parts.push({
        index: f.part,
        rowKeys,
        rowNumbers: donations.map(() => null),
        fingerprints: donations.map((d) => fingerprintDonation(d)),
        totals: totalsOf(donations),
        fileHash: f.sha256,
        fileBytes: f.bytes.length,
        file,
      });
    }
    const group: LedgerGroup = {
      id: known.id,
      workspaceId: '',
      workspaceName: known.workspaceName,
      createdAt: known.createdAt,
      environment: env.id,
      baseUrl: env.baseUrl,
      referenceKey: null,
      parts,
      corrects: null,
      replaces: [],
      stopped: null,
      approval: {
        server: team.server,
        fileSha256: known.fileSha256,
        needed: true,
        state: known.state,
        preparer: known.preparer,
        decidedBy: known.decidedBy,
        decidedAt: known.decidedAt,
        reason: known.reason,
        sender: 'approver',
        sendsHere: true,
        sentBy: null,
        sentFrom: null,
      },
    };
    await this.ctx.ledger.putGroup(group);
    return group;
  }

  /**
   * Team mode, the approver's computer: sends an upload this login approved when the team's rule
   * says the approver sends (after "Approve and send", or `donation-desk approve`).
   */
  sendApproved(uploadId: string): Promise<ChannelResponse<'upload.start'>> {
    return this.serialStart(async () => {
      const team = this.ctx.team?.() ?? null;
      if (!team) throw new DeskFailure('TEAM_ALONE', 'Sending an approved upload needs the team database.');
      let group = this.ctx.ledger.group(uploadId);
      if (!group) {
        const known = await this.teamCall(() => team.upload(uploadId));
        if (!known) throw new DeskFailure('NOT_FOUND', `The team database has no upload ${uploadId}.`);
        group = await this.takeOver(team, known);
      }
      const problems = await this.sendGroup(group);
      return { uploadId, upload: this.view(uploadId), problems };
    });
  }

  /** Approved uploads this login is to send and this computer does not have yet: taken over now. */
  private async takeOverApproved(): Promise<void> {
    const team = this.ctx.team?.() ?? null;
    if (!team) return;
    let toSend: TeamUpload[];
    try {
      toSend = await team.uploadsToSend();
    } catch {
      return;
    }
    for (const known of toSend) {
      if (this.ctx.ledger.group(known.id)) continue;
      await this.serialStart(() => this.takeOver(team, known)).catch(() => undefined);
    }
  }

  /**
   * An edit of a workspace whose upload waits for approval, or is approved and not sent yet: that
   * approval no longer holds. Voided in the team database and stopped here.
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
    const team = this.ctx.team?.() ?? null;
    for (const group of open) {
      await this.withGroupLock(group.id, async () => {
        const current = this.ctx.ledger.group(group.id) ?? group;
        if (current.stopped || current.approval?.state === 'sent' || !this.unsent(current)) return;
        const at = new Date(this.ctx.now()).toISOString();
        const reason = `the workspace was edited after it was submitted for approval (version ${version}, ${at})`;
        let noted = current;
        if (team) {
          const known = await team.voidUpload(group.id, reason).catch(() => null);
          if (known) noted = await this.noteTeamState(current, known);
        }
        await this.stopGroup(noted, `Approval void: ${reason}`);
      });
    }
    // The database gave its corrections back with the void; if it could not be reached, now or later.
    await this.giveBackClaims(open.map((g) => g.id));
  }

  /** Sends every part not yet at the service; problems are reported and retried in the background. */
  private async sendGroup(group: LedgerGroup): Promise<string[]> {
    const problems: string[] = [];
    if (group.approval && !group.stopped && this.unsent(group)) {
      const gate = await this.withGroupLock(group.id, () =>
        this.teamGate(this.ctx.ledger.group(group.id) ?? group),
      );
      if (gate === 'stopped') {
        const reason = this.ctx.ledger.group(group.id)?.stopped?.reason;
        return reason ? [reason] : [];
      }
      if (gate === 'elsewhere') return [];
      if (gate === 'wait') {
        // Waiting for an approver is not a problem: the resume loop asks the database again later.
        this.scheduleResume();
        const problem = this.gateProblems.get(group.id);
        this.gateProblems.delete(group.id);
        return problem ? [problem] : [];
      }
    }
    for (const part of group.parts) {
      try {
        await this.withGroupLock(group.id, () =>
          this.sender.send(this.ctx.ledger.group(group.id) ?? group, part.index),
        );
      } catch (e) {
        if (!(e instanceof DeskFailure)) {
          // Unexpected (a disk error, say): the upload is recorded, so it is tried again later.
          problems.push(`Part ${part.index + 1} could not be sent yet; it will be tried again.`);
          this.scheduleResume();
          continue;
        }
        problems.push(e.message);
        if (e.code === 'UPLOAD_REJECTED' || e.code === 'LEDGER_FILE_MISSING') {
          const current = this.ctx.ledger.group(group.id) ?? group;
          await this.ctx.ledger.putGroup({
            ...current,
            stopped: { at: new Date(this.ctx.now()).toISOString(), reason: e.message },
          });
          // Intents of a stopped upload that never got a file never will: they must not hold rows back.
          for (const intent of this.ctx.ledger.intentsOf(group.id, part.index)) {
            if (intent.state === 'pending' || intent.state === 'creating') {
              await saveIntent(this.ctx, intent, { state: 'abandoned', note: 'upload stopped' });
            }
          }
        } else this.scheduleResume();
      }
    }
    return problems;
  }

  private view(groupId: string): UploadView {
    const group = this.ctx.ledger.group(groupId);
    if (!group) throw new DeskFailure('NOT_FOUND', 'That upload is not in the ledger.');
    return uploadView(group, this.ctx.ledger.allIntents());
  }

  start(input: ChannelInput<'upload.start'>): Promise<ChannelResponse<'upload.start'>> {
    return this.serialStart(async () => {
      // The upload's id exists from the first progress event, so the renderer can follow it throughout.
      const uploadId = randomUUID();
      const validated = await validateWorkspace(
        await this.ctx.workspaces.read(input.workspaceId),
        undefined,
        (done, total) => this.progress(input.workspaceId, uploadId, 0, 1, 'validating', done, total),
      );
      const { rows, duplicates } = await this.admit(validated, input.skipInvalid, input.confirmDuplicates);
      await this.checkReplacements(rows, uploadId);
      const team = this.ctx.team?.() ?? null;
      let group = await this.recordClaimed(validated, rows, null, uploadId, team);
      if (team) {
        // Only flagged rows were confirmed (admit refused the rest): those may go again.
        const flagged = new Set(duplicates.map((d) => d.rowKey));
        const confirmed =
          input.confirmDuplicates === 'all'
            ? 'all'
            : new Set(rows.filter((r) => flagged.has(r.key)).map((r) => r.fingerprint));
        group = await this.submitToTeam(team, group, validated, rows, confirmed, flagged.size);
      }
      const problems = await this.sendGroup(group);
      await this.giveBackIfStopped(group.id);
      return { uploadId: group.id, upload: this.view(group.id), problems };
    });
  }

  resend(input: ChannelInput<'upload.resend'>): Promise<ChannelResponse<'upload.resend'>> {
    return this.serialStart(async () => {
      const { failed, wanted } = await this.rowsToResend(input.intentId);
      const group = this.ctx.ledger.group(failed.groupId) as LedgerGroup;
      const workspace = await this.ctx.workspaces.read(group.workspaceId);
      const validated = await validateWorkspace(workspace, wanted);
      const gone = wanted.size - validated.ready.length - validated.invalid.length;
      const { rows } = await this.admit(validated, input.skipInvalid, undefined, group.id);
      const correctedId = randomUUID();
      await this.checkReplacements(rows, correctedId);
      const team = this.ctx.team?.() ?? null;
      let corrected = await this.recordClaimed(validated, rows, failed.serviceId, correctedId, team);
      // The failed bulk's own rows are claimed by its upload: this one finishes it, so they may go again.
      if (team)
        corrected = await this.submitToTeam(
          team,
          corrected,
          validated,
          rows,
          new Set(rows.map((r) => r.fingerprint)),
          0,
        );
      await saveIntent(this.ctx, failed, {
        correctedByUpload: corrected.id,
        note: 'rejected rows sent again in a later upload',
      });
      const problems = await this.sendGroup(corrected);
      await this.giveBackIfStopped(corrected.id);
      if (gone > 0) {
        problems.unshift(
          `${count(gone, 'row')} of the failed bulk ${plural(gone, { one: 'is', other: 'are' })} no longer in the workspace and ${plural(gone, { one: 'was', other: 'were' })} not sent.`,
        );
      }
      return { uploadId: corrected.id, upload: this.view(corrected.id), problems };
    });
  }

  list(): UploadView[] {
    const intents = this.ctx.ledger.allIntents();
    return this.ctx.ledger
      .allGroups()
      .map((g) => uploadView(g, intents))
      .reverse();
  }

  private intentOrThrow(id: string): LedgerIntent {
    const intent = this.ctx.ledger.findIntent(id);
    if (!intent)
      throw new DeskFailure('NOT_FOUND', `There is no bulk intent ${id} in this computer’s upload ledger.`);
    return intent;
  }

  get(id: string): IntentView {
    const intent = this.intentOrThrow(id);
    return intentView(this.ctx.ledger.group(intent.groupId) as LedgerGroup, intent);
  }

  async refresh(id: string): Promise<IntentView> {
    const intent = this.intentOrThrow(id);
    if (needsFollowing(intent)) await this.follower.pollNow(intent.attemptId);
    return this.get(id);
  }

  async errors(id: string): Promise<ChannelResponse<'upload.errors'>> {
    let intent = this.intentOrThrow(id);
    if (intent.state !== 'ERROR' && needsFollowing(intent)) {
      await this.follower.pollNow(intent.attemptId);
      intent = this.intentOrThrow(id);
    }
    if (intent.state !== 'ERROR') {
      throw new DeskFailure('NOT_IN_ERROR', `Bulk ${id} is ${intent.state}; there is no error file.`);
    }
    return errorsOf(this.ctx, this.ctx.ledger.group(intent.groupId) as LedgerGroup, intent);
  }

  /** Whether every intent in the ledger has reached an end the service will not change. */
  settled(): boolean {
    const intents = this.ctx.ledger.allIntents();
    return this.ctx.ledger.allGroups().every((g) => {
      if (g.stopped) return true;
      return g.parts.every((p) => {
        const current = intents
          .filter((i) => i.groupId === g.id && i.part === p.index && i.state !== 'abandoned')
          .at(-1);
        return (
          current !== undefined &&
          (current.state === 'PROCESSED' || (current.state === 'ERROR' && current.donationRowKeys !== null))
        );
      });
    });
  }

  /** Resumes everything unfinished in the ledger: sends parts not yet at the service, follows the rest. */
  resume(): Promise<void> {
    this.resumeRun ??= this.resumeAll().finally(() => {
      this.resumeRun = null;
    });
    return this.resumeRun;
  }

  private async resumeAll(): Promise<void> {
    if (this.closed) return;
    // Corrections claimed by uploads that ended creating nothing, not given back when they ended.
    await this.giveBackClaims();
    // The approver sends: uploads this login approved and is to send, not on this computer yet.
    await this.takeOverApproved();
    // Nothing unfinished: do not even start the Offline sandbox or ask for a token.
    if (this.settled()) return;
    let env: { id: string; baseUrl: string; emulated: boolean };
    try {
      env = await this.environmentKey();
    } catch {
      this.scheduleResume();
      return;
    }
    let failed = false;
    for (const group of this.ctx.ledger.allGroups()) {
      if (this.closed) return;
      if (group.stopped) continue;
      // Never send an upload to another service than the one it was prepared for.
      if (group.environment !== env.id || (!env.emulated && group.baseUrl !== env.baseUrl)) continue;
      for (const intent of this.ctx.ledger.intentsOf(group.id))
        if (needsFollowing(intent)) this.follower.follow(intent, 0);
      const problems = await this.sendGroup(group).catch(() => ['failed']);
      if (problems.length) failed = true;
      // Still waiting for an approver: ask the database again less and less often (up to the
      // longest poll interval), not every few seconds for as long as it waits.
      const after = this.ctx.ledger.group(group.id);
      if (after?.approval && !after.stopped && ['submitting', 'waiting'].includes(after.approval.state))
        failed = true;
      // Sent (or to be sent) by another computer, its bulks not all known here yet: ask again later.
      if (after?.approval?.sendsHere === false && !after.stopped && this.unsent(after)) failed = true;
    }
    // And those of uploads this pass stopped (the upload host refused the file).
    await this.giveBackClaims();
    if (!failed) this.resumeFailures = 0;
  }

  private scheduleResume(): void {
    if (this.closed || this.resumeTimer) return;
    const delay = backoffDelay(this.resumeFailures++, {
      baseMs: this.ctx.poll.minMs,
      maxMs: this.ctx.poll.maxMs,
    });
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = null;
      void this.resume();
    }, delay);
    this.resumeTimer.unref();
  }

  ledger(): UploadContext['ledger'] {
    return this.ctx.ledger;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    await this.follower.close();
    await this.resumeRun?.catch(() => undefined);
    await this.startQueue.catch(() => undefined);
    await Promise.allSettled([...this.groupLocks.values()]);
  }
}
