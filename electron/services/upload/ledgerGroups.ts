/*
 * Where a recorded upload stands, read from the ledger: which parts have no file at the service
 * yet, whether everything has ended, whether it waits on the team; and how an upload is stopped.
 */
import type { LedgerGroup } from '../ledger/ledgerShapes';
import { SENT_STATES } from '../ledger/ledgerShapes';
import type { LedgerStore } from '../ledger/ledgerStore';

type LedgerReads = Pick<LedgerStore, 'intentsOf'>;

/** Whether some part of the upload has no file at the service yet. */
export function unsent(ledger: LedgerReads, group: LedgerGroup): boolean {
  return group.parts.some((p) => {
    const current = ledger
      .intentsOf(group.id, p.index)
      .filter((i) => i.state !== 'abandoned')
      .at(-1);
    return !current || !SENT_STATES.has(current.state as never);
  });
}

/** Whether every intent in the ledger has reached an end the service will not change. */
export function allSettled(ledger: Pick<LedgerStore, 'allGroups' | 'allIntents'>): boolean {
  const intents = ledger.allIntents();
  return ledger.allGroups().every((g) => {
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

/**
 * Whether a pass of resume should count the upload as not done yet: still waiting for an approver,
 * or sent by another computer whose bulks are not all known here.
 */
export function waitsOnTeam(ledger: LedgerReads, group: LedgerGroup | undefined): boolean {
  if (!group?.approval || group.stopped) return false;
  if (['submitting', 'waiting'].includes(group.approval.state)) return true;
  return group.approval.sendsHere === false && unsent(ledger, group);
}

/** Stops the upload with the reason (an upload stopped already keeps its first reason). */
export async function stopGroup(
  ctx: { ledger: Pick<LedgerStore, 'group' | 'putGroup'>; now: () => number },
  group: LedgerGroup,
  reason: string,
): Promise<LedgerGroup> {
  const current = ctx.ledger.group(group.id) ?? group;
  if (current.stopped) return current;
  const next = { ...current, stopped: { at: new Date(ctx.now()).toISOString(), reason } };
  await ctx.ledger.putGroup(next);
  return next;
}
