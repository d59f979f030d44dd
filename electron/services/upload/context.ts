import type { IntentState } from '../../../shared/contract/uploadChannels';
import type { LedgerIntent } from '../ledger/ledgerShapes';
import type { UploadBasics } from './basics';
import type { SendGate } from './sendGate';
import { intentView } from './views';

export type { CheckReplacements, PollPolicy, UploadBasics } from './basics';

/** The basics and the send gate, which hears of every intent saved. */
export interface UploadContext extends UploadBasics {
  gate: SendGate;
}

/**
 * Writes a changed intent durably, adds a timeline entry when its state moved, and tells the
 * renderer. Every state change goes through here, so the ledger is always ahead of what was shown.
 */
export async function saveIntent(
  ctx: UploadContext,
  intent: LedgerIntent,
  change: Partial<Omit<LedgerIntent, 'attemptId' | 'groupId' | 'part' | 'timeline'>> & { note?: string },
): Promise<LedgerIntent> {
  const at = new Date(ctx.now()).toISOString();
  const { note, ...fields } = change;
  const next: LedgerIntent = { ...intent, ...fields, updatedAt: at };
  const moved: IntentState | undefined =
    fields.state !== undefined && fields.state !== intent.state ? fields.state : undefined;
  if (moved) next.timeline = [...intent.timeline, { state: moved, at, ...(note ? { note } : {}) }];
  else if (note) next.timeline = [...intent.timeline, { state: next.state, at, note }];
  await ctx.ledger.putIntent(next);
  const group = ctx.ledger.group(next.groupId);
  if (group) {
    ctx.events.emit('intent.updated', intentView(group, next));
    ctx.gate.intentSaved(group, intent, next);
  }
  return next;
}
