/*
 * Sending a recorded upload: the send gate is asked first (an upload recorded with an approval
 * goes only when released), then every part not yet at the service is sent under the upload's lock.
 */
import { DeskFailure } from '../../../shared/result';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { saveIntent, type UploadContext } from './context';
import { unsent } from './ledgerGroups';
import type { PartSender } from './sender';
import type { KeyedLocks } from './serialWork';

/** Whether an intent may have put bytes at the service: it went past creating its upload address. */
function reachedService(intent: LedgerIntent): boolean {
  const early = new Set(['creating', 'pending', 'abandoned']);
  return !early.has(intent.state) || intent.timeline.some((t) => !early.has(t.state));
}

export class GroupSender {
  constructor(
    private readonly ctx: UploadContext,
    private readonly sender: Pick<PartSender, 'send'>,
    private readonly locks: KeyedLocks,
    /** `decision`: only an approver's decision is awaited. */
    private readonly scheduleResume: (decision?: boolean) => void,
  ) {}

  /** Sends every part not yet at the service; problems are reported and retried in the background. */
  async send(group: LedgerGroup): Promise<string[]> {
    const { ctx } = this;
    const problems: string[] = [];
    if (group.approval && !group.stopped && unsent(ctx.ledger, group)) {
      const gate = await this.locks.with(group.id, () =>
        ctx.gate.beforeSend(ctx.ledger.group(group.id) ?? group),
      );
      if (gate.verdict === 'stopped') {
        const reason = ctx.ledger.group(group.id)?.stopped?.reason;
        return reason ? [reason] : [];
      }
      if (gate.verdict === 'elsewhere') return [];
      if (gate.verdict === 'wait') {
        // Waiting for an approver is not a problem: the resume loop asks the gate again later.
        this.scheduleResume(true);
        return gate.problem ? [gate.problem] : [];
      }
    }
    for (const part of group.parts) {
      try {
        await this.locks.with(group.id, () =>
          this.sender.send(ctx.ledger.group(group.id) ?? group, part.index),
        );
      } catch (e) {
        if (!(e instanceof DeskFailure)) {
          // Unexpected (a disk error, say): the upload is recorded, so it is tried again later.
          problems.push(`Part ${part.index + 1} could not be sent yet; it will be tried again.`);
          this.scheduleResume();
          continue;
        }
        problems.push(e.message);
        if (e.code === 'UPLOAD_REJECTED' || e.code === 'LEDGER_FILE_MISSING')
          await this.stop(group, part.index, e);
        else this.scheduleResume();
      }
    }
    return problems;
  }

  /** The upload host refused the file, or it is gone: the upload stops with the reason. */
  private async stop(group: LedgerGroup, part: number, e: DeskFailure): Promise<void> {
    const { ctx } = this;
    const current = ctx.ledger.group(group.id) ?? group;
    await ctx.ledger.putGroup({
      ...current,
      stopped: { at: new Date(ctx.now()).toISOString(), reason: e.message },
    });
    // Intents of a stopped upload that never got a file never will: they must not hold rows back.
    for (const intent of ctx.ledger.intentsOf(group.id, part)) {
      if (intent.state === 'pending' || intent.state === 'creating') {
        await saveIntent(ctx, intent, { state: 'abandoned', note: 'upload stopped' });
      }
    }
    // Its file never left (missing, or not the one recorded), and no part of it reached the
    // service: the gate records that nothing was sent.
    if (e.code === 'LEDGER_FILE_MISSING' && !ctx.ledger.intentsOf(group.id).some(reachedService)) {
      await ctx.gate.nothingSent(ctx.ledger.group(group.id) ?? current, e.message);
    }
  }
}
