import type { BulkIntentResource } from '../../../shared/bulk-file/serviceShapes';
import { count } from '../../../shared/i18n';
import type { LedgerIntent } from '../ledger/ledgerShapes';
import { saveIntent, type UploadContext } from './context';
import { rowsWithDonation } from './repair';
import { DeskFailure } from '../../../shared/result';

const SERVICE_STATES = new Set(['UPLOADED', 'VALIDATED', 'PROCESSING', 'PROCESSED', 'ERROR']);

/** Whether there is still something to learn about an intent from the service. */
export function needsFollowing(intent: LedgerIntent): boolean {
  if (!intent.serviceId) return false;
  if (intent.state === 'ERROR') return intent.donationRowKeys === null;
  return ['UPLOADED', 'VALIDATED', 'PROCESSING'].includes(intent.state);
}

/** Records what the service says of an intent; on ERROR also which rows got a donation anyway. */
export async function applyRemote(
  ctx: UploadContext,
  intent: LedgerIntent,
  remote: BulkIntentResource,
): Promise<LedgerIntent> {
  const raw = remote.attributes.status;
  if (raw === 'PENDING' || !SERVICE_STATES.has(raw)) return intent;
  const status = raw;
  const meta = remote.links?.related?.meta ?? {};
  const counts = {
    ...(meta.uploaded !== undefined ? { uploaded: meta.uploaded } : {}),
    ...(meta.accepted !== undefined ? { accepted: meta.accepted } : {}),
    ...(meta.invalid !== undefined ? { invalid: meta.invalid } : {}),
  };
  const rawErrors = remote.attributes.errors;
  const first = Array.isArray(rawErrors) ? rawErrors[0] : rawErrors;
  const error = first
    ? { code: first.code, title: first.title ?? first.code, detail: first.detail ?? '' }
    : null;
  let next = intent;
  const changed =
    status !== intent.state ||
    JSON.stringify(counts) !== JSON.stringify(intent.counts) ||
    JSON.stringify(error) !== JSON.stringify(intent.error);
  if (changed) next = await saveIntent(ctx, intent, { state: status, counts, error });
  if (status === 'PROCESSED' && next.donationRowKeys === null) {
    const group = ctx.ledger.group(next.groupId);
    next = await saveIntent(ctx, next, { donationRowKeys: group?.parts[next.part]?.rowKeys ?? [] });
  }
  if (status === 'ERROR' && next.donationRowKeys === null) {
    const group = ctx.ledger.group(next.groupId);
    if (group) {
      // Partial extraction leaves some donations behind: know them before anything is resent.
      const keys = await rowsWithDonation(ctx, group, next);
      next = await saveIntent(ctx, next, {
        donationRowKeys: keys,
        note: keys.length
          ? `${count(keys.length, 'row')} got a donation before the error`
          : 'no donation was created',
      });
    }
  }
  return next;
}

/**
 * Polls every open intent until PROCESSED or ERROR: a few seconds after a change, growing to about a
 * minute while nothing moves; a failed poll waits longer, it never stops following.
 */
export class IntentFollower {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; delay: number }>();
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: UploadContext,
    private readonly onFinished: (intent: LedgerIntent) => void,
  ) {}

  follow(intent: LedgerIntent, delay = this.ctx.poll.minMs): void {
    if (this.closed || !needsFollowing(intent) || this.timers.has(intent.attemptId)) return;
    this.schedule(intent.attemptId, delay);
  }

  /** A poll after `delay`; `grownFrom` is the delay the next one grows from (a hold does not grow it). */
  private schedule(attemptId: string, delay: number, grownFrom = delay): void {
    const timer = setTimeout(() => {
      this.timers.delete(attemptId);
      const run = this.pollOnce(attemptId, grownFrom).finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }, delay);
    timer.unref();
    this.timers.set(attemptId, { timer, delay });
  }

  /** Poll now (the refresh button); following continues after. */
  async pollNow(attemptId: string): Promise<LedgerIntent | undefined> {
    const pending = this.timers.get(attemptId);
    if (pending) {
      clearTimeout(pending.timer);
      this.timers.delete(attemptId);
    }
    await this.pollOnce(attemptId, this.ctx.poll.minMs, true);
    return this.ctx.ledger.findIntent(attemptId);
  }

  private async pollOnce(attemptId: string, lastDelay: number, rethrow = false): Promise<void> {
    const intent = this.ctx.ledger.findIntent(attemptId);
    if (!intent || !needsFollowing(intent) || this.closed) return;
    if (!rethrow && !(await this.ctx.gate.mayFollow(intent))) {
      // Another computer of the team follows it now: look again when that may have changed.
      if (!this.closed) this.schedule(attemptId, this.ctx.poll.maxMs);
      return;
    }
    // The service's scheduled maintenance: wait for its end; one look now and then across the desk.
    const held = rethrow ? null : this.ctx.environments.maintenance.waitMs(this.ctx.poll.maxMs);
    if (held !== null) {
      if (!this.closed) this.schedule(attemptId, held, lastDelay);
      return;
    }
    let next: LedgerIntent;
    try {
      const remote = await this.ctx.client.getIntent(intent.serviceId as string);
      next = await applyRemote(this.ctx, intent, remote);
    } catch (e) {
      const hold = maintenanceDelay(this.ctx, e);
      if (hold !== null) {
        // Not a failure: no longer delay afterwards, and following goes on at the window's end.
        if (!this.closed) this.schedule(attemptId, hold, lastDelay);
        if (rethrow) throw e;
        return;
      }
      if (!this.closed)
        this.schedule(attemptId, Math.min(this.ctx.poll.maxMs, lastDelay * this.ctx.poll.factor * 2));
      if (rethrow) throw e;
      return;
    }
    if (this.closed) return;
    if (!needsFollowing(next)) {
      this.ctx.gate.followed(next);
      this.onFinished(next);
      return;
    }
    const moved = next.state !== intent.state;
    this.schedule(
      attemptId,
      moved ? this.ctx.poll.minMs : Math.min(this.ctx.poll.maxMs, lastDelay * this.ctx.poll.factor),
    );
  }

  isFollowing(attemptId: string): boolean {
    return this.timers.has(attemptId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}

/** While the service is in its scheduled maintenance: how long a held loop waits (null: not held). */
export function maintenanceDelay(
  ctx: Pick<UploadContext, 'environments' | 'poll'>,
  e: unknown,
): number | null {
  if (!(e instanceof DeskFailure) || e.code !== 'MAINTENANCE') return null;
  return ctx.environments.maintenance.holdDelay(ctx.poll.maxMs) ?? ctx.poll.maxMs;
}
