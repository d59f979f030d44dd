/*
 * The send gate of a computer working alone: every upload goes at once and nothing is shared. An
 * upload recorded earlier with a team approval is the exception: only the team database it was
 * submitted to may release it, so it waits until that database is in force again.
 */
import { DeskFailure } from '../../../shared/result';
import type { LedgerGroup } from '../ledger/ledgerShapes';
import type { GateAnswer, SendGate, SendGates } from './sendGate';

/** Why an upload submitted to a team database waits on a computer not connected to it now. */
export function notConnectedProblem(group: LedgerGroup): string {
  return `Upload ${group.id} was submitted to the team database ${group.approval?.server ?? ''}, which this computer is not connected to now; it is not sent until it is.`;
}

/** Whether the upload's approval already says it is this computer's to send. */
export function sentFromHere(group: LedgerGroup): boolean {
  return !group.approval || (group.approval.sendsHere !== false && group.approval.state === 'sent');
}

export const localSendGate: SendGate = {
  sentElsewhere: async () => new Map(),
  begin: () => null,
  async beforeSend(group): Promise<GateAnswer> {
    if (sentFromHere(group)) return { verdict: 'go' };
    return { verdict: 'wait', problem: notConnectedProblem(group) };
  },
  intentSaved: () => undefined,
  nothingSent: async () => undefined,
  mayFollow: async () => true,
  followed: () => undefined,
  edited: async (group) => group,
  giveBackClaims: async () => undefined,
  takeOverApproved: async () => undefined,
  async toSend() {
    throw new DeskFailure('TEAM_ALONE', 'Sending an approved upload needs the team database.');
  },
};

export const localSendGates: SendGates = {
  inForce: () => false,
  anythingToTakeOver: async () => false,
  voidApprovals: async () => undefined,
  open: () => localSendGate,
};
