import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { DeskFailure } from '../../../shared/result';
import { retryDelay } from '../api/backoff';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { SENT_STATES } from '../ledger/ledgerShapes';
import { saveIntent, type UploadContext } from './context';
import { applyRemote } from './follower';
import { sha256OfFile } from './compress';
import type { FileSource } from '../api/multipart';

/** Fresh intents tried for one part in one go before the part waits for the next resume. */
const MAX_FRESH_INTENTS = 8;
/** Fresh addresses refused (403) in a row before the part is stopped. */
const MAX_REFUSALS = 3;
/** Upload attempts against one intent after answers that prove the file did not land. */
const MAX_UPLOADS_PER_INTENT = 4;
/** An address this close to its expiry is not used: the upload might not finish in time. */
const EXPIRY_MARGIN_MS = 30_000;

interface UploadForm {
  url: string;
  fields: Record<string, string>;
  /** Local time by which the address lapses, from the service's own lifetime (clock-skew free). */
  deadline: number;
}

/**
 * Gets one part of an upload to the service exactly once. The rules that make it safe:
 *  - an intent attempt is in the ledger before the service is asked, so none is ever unknown;
 *  - an intent that never received a file creates no donations, so an unconfirmed or expired one is
 *    simply abandoned and a new one created (the service has no list of intents to check instead);
 *  - after any unclear end of the file POST, the intent is read back before anything else: not
 *    PENDING means the file landed; PENDING means it did not, and it is sent again or replaced;
 *  - the signed upload fields are kept only in memory, never on disk: after a restart an intent
 *    still PENDING is abandoned and replaced.
 */
export class PartSender {
  private readonly forms = new Map<string, UploadForm>();

  constructor(
    private readonly ctx: UploadContext,
    private readonly follow: (intent: LedgerIntent) => void,
    private readonly progress: (
      group: LedgerGroup,
      part: number,
      stage: 'creating-intent' | 'uploading' | 'uploaded',
      done: number,
      total: number | null,
    ) => void,
  ) {}

  private current(group: LedgerGroup, part: number): LedgerIntent | undefined {
    return this.ctx.ledger
      .intentsOf(group.id, part)
      .filter((i) => i.state !== 'abandoned')
      .at(-1);
  }

  /** Brings the ledger's unfinished attempts of a part up to date with the service. */
  private async reconcile(group: LedgerGroup, part: number): Promise<void> {
    for (const intent of this.ctx.ledger.intentsOf(group.id, part)) {
      if (intent.state === 'creating') {
        // Only a crash or an unclear answer leaves this (sending holds the group's lock): unknowable, harmless.
        await saveIntent(this.ctx, intent, { state: 'abandoned', note: 'creation was never confirmed' });
        continue;
      }
      if (intent.state !== 'pending' && intent.state !== 'uploading') continue;
      const form = this.forms.get(intent.attemptId);
      if (intent.state === 'pending' && form) continue;
      let remote = await this.ctx.client.getIntent(intent.serviceId as string);
      // Uploading without the form in memory means a previous run stopped mid-upload. A file whose
      // last byte left just before that may still be landing; every such byte left before this run
      // began, so waiting until the grace after our own start is enough, whatever the file's size.
      const wait = this.ctx.startedAt + this.ctx.uploadGraceMs - this.ctx.now();
      if (remote.attributes.status === 'PENDING' && intent.state === 'uploading' && !form && wait > 0) {
        await this.ctx.sleep(wait);
        remote = await this.ctx.client.getIntent(intent.serviceId as string);
      }
      if (remote.attributes.status !== 'PENDING') {
        const next = await applyRemote(this.ctx, intent, remote);
        this.follow(next);
      } else if (form && form.deadline - EXPIRY_MARGIN_MS > this.ctx.now()) {
        await saveIntent(this.ctx, intent, { state: 'pending' });
      } else {
        await saveIntent(this.ctx, intent, {
          state: 'abandoned',
          note: form ? 'upload address expired' : 'the app stopped before the file was accepted',
        });
      }
    }
  }

  async send(group: LedgerGroup, part: number): Promise<void> {
    let fresh = 0;
    let refusals = 0;
    for (;;) {
      await this.reconcile(group, part);
      const current = this.current(group, part);
      if (current && SENT_STATES.has(current.state as never)) {
        this.follow(current);
        return;
      }
      if (current?.state === 'pending') {
        const form = this.forms.get(current.attemptId) as UploadForm;
        if (form.deadline - EXPIRY_MARGIN_MS <= this.ctx.now()) {
          await saveIntent(this.ctx, current, {
            state: 'abandoned',
            note: 'upload address expired before the upload',
          });
          continue;
        }
        const result = await this.upload(group, part, current, form);
        if (result === 'done') return;
        if (result === 'refused' && ++refusals >= MAX_REFUSALS) {
          // Fresh addresses refused one after another is not an expiry but a problem with the file or
          // the host's policy; creating intents forever would not fix it.
          throw new DeskFailure(
            'UPLOAD_REJECTED',
            `The upload host refused part ${part + 1} with ${refusals} fresh addresses in a row, so it was stopped. Upload the workspace again later, or contact support.`,
          );
        }
        continue;
      }
      if (fresh >= MAX_FRESH_INTENTS) {
        throw new DeskFailure(
          'UPLOAD_FAILED',
          `Part ${part + 1} of the upload could not be delivered after ${fresh} bulk intents. It will be tried again.`,
        );
      }
      if (fresh > 0) await this.ctx.sleep(retryDelay(fresh - 1, this.ctx.retry, undefined));
      fresh++;
      await this.createIntent(group, part);
    }
  }

  private async createIntent(group: LedgerGroup, part: number): Promise<void> {
    const at = new Date(this.ctx.now()).toISOString();
    const attempt: LedgerIntent = {
      attemptId: `local-${randomUUID()}`,
      serviceId: null,
      groupId: group.id,
      part,
      state: 'creating',
      createdAt: at,
      updatedAt: at,
      expiresAt: null,
      timeline: [{ state: 'creating', at }],
      counts: {},
      error: null,
      donationRowKeys: null,
      correctedByUpload: null,
    };
    // Durable before the request: a crash mid-request leaves a known, abandonable attempt.
    await this.ctx.ledger.putIntent(attempt);
    this.progress(group, part, 'creating-intent', 0, null);
    const askedAt = this.ctx.now();
    try {
      const intent = await this.ctx.client.createIntent();
      const { url, fields, expiresAt, createdAt } = intent.attributes;
      const lifetime =
        expiresAt && createdAt ? Date.parse(expiresAt) - Date.parse(createdAt) : Number.POSITIVE_INFINITY;
      this.forms.set(attempt.attemptId, {
        url: url as string,
        fields: fields as Record<string, string>,
        deadline: askedAt + (Number.isFinite(lifetime) ? lifetime : 3_600_000),
      });
      await saveIntent(this.ctx, attempt, {
        serviceId: intent.id,
        state: 'pending',
        expiresAt: expiresAt ?? null,
      });
    } catch (e) {
      const reason = e instanceof DeskFailure ? e.message : 'the request failed';
      await saveIntent(this.ctx, attempt, { state: 'abandoned', note: `creation not confirmed: ${reason}` });
      // An unclear answer is safe to answer with a new intent; anything else waits for a later try.
      if (!(e instanceof DeskFailure) || e.code !== 'AMBIGUOUS') throw e;
    }
  }

  /** 'done' when the part's file is at the service (this intent or, proven by a read, an earlier try). */
  private async upload(
    group: LedgerGroup,
    part: number,
    intent: LedgerIntent,
    form: UploadForm,
  ): Promise<'done' | 'refused' | 'expired'> {
    const meta = group.parts[part];
    if (!meta) throw new DeskFailure('NOT_FOUND', 'That part of the upload is not in the ledger.');
    const path = join(this.ctx.ledger.dir, meta.file);
    const missing = (): DeskFailure =>
      new DeskFailure(
        'LEDGER_FILE_MISSING',
        'The prepared file for this upload is missing or changed on disk, so it is not sent.',
      );
    // Checked a piece at a time before anything is sent, then read again as it is sent (never whole
    // in memory), hashed on the way: bytes other than the recorded ones fail the body before its
    // end, so the host never receives a complete file that is not the one recorded.
    const onDisk = await sha256OfFile(path).catch(() => null);
    if (!onDisk || onDisk.sha256 !== meta.fileHash) throw missing();
    let changed = false;
    const file: FileSource = {
      size: onDisk.bytes,
      async *read() {
        const hash = createHash('sha256');
        let bytes = 0;
        for await (const chunk of createReadStream(path, {
          highWaterMark: 1 << 20,
        }) as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          if (bytes > onDisk.bytes) {
            changed = true;
            throw missing();
          }
          hash.update(chunk);
          yield chunk;
        }
        if (bytes !== onDisk.bytes || hash.digest('hex') !== meta.fileHash) {
          changed = true;
          throw missing();
        }
      },
    };
    let current = await saveIntent(this.ctx, intent, { state: 'uploading' });
    for (let tries = 0; ; tries++) {
      const outcome = await this.ctx.client.uploadFile(form.url, form.fields, file, (sent, total) =>
        this.progress(group, part, 'uploading', sent, total),
      );
      if (changed) {
        // The body was cut short before its end: the host did not take it. Not sent again as it is.
        await saveIntent(this.ctx, current, { state: 'pending', note: 'the prepared file changed on disk' });
        throw missing();
      }
      if (outcome.kind === 'uploaded') {
        this.forms.delete(intent.attemptId);
        current = await saveIntent(this.ctx, current, { state: 'UPLOADED' });
        this.progress(group, part, 'uploaded', file.size, file.size);
        this.follow(current);
        return 'done';
      }
      if (outcome.kind === 'rejected') {
        this.forms.delete(intent.attemptId);
        await saveIntent(this.ctx, current, { state: 'abandoned', note: outcome.message });
        throw new DeskFailure('UPLOAD_REJECTED', outcome.message);
      }
      // Unclear or refused: ask the service whether the file landed before doing anything else.
      const remote = await this.ctx.client.getIntent(intent.serviceId as string);
      if (remote.attributes.status !== 'PENDING') {
        this.forms.delete(intent.attemptId);
        current = await applyRemote(this.ctx, current, remote);
        this.follow(current);
        return 'done';
      }
      if (outcome.kind === 'refused' || form.deadline - EXPIRY_MARGIN_MS <= this.ctx.now()) {
        this.forms.delete(intent.attemptId);
        await saveIntent(this.ctx, current, {
          state: 'abandoned',
          note: 'upload address expired or refused (403)',
        });
        return outcome.kind === 'refused' ? 'refused' : 'expired';
      }
      if (tries + 1 >= MAX_UPLOADS_PER_INTENT) {
        current = await saveIntent(this.ctx, current, {
          state: 'pending',
          note: 'the upload did not go through',
        });
        throw new DeskFailure(
          'SERVICE_UNAVAILABLE',
          'The upload address kept failing; the file was not accepted. It will be tried again.',
        );
      }
      await this.ctx.sleep(
        retryDelay(tries, this.ctx.retry, outcome.kind === 'later' ? outcome.retryAfterMs : undefined),
      );
    }
  }
}
