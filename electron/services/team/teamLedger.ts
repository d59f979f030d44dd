/*
 * Team mode, the shared ledger: each bulk a team upload created at the service, written to the team
 * database by the computer that sent it, so every computer of the team lists those donations in
 * Reconcile and counts them in the month-end report (see reconcile/teamBulks.ts for the reading
 * side). Only what the other computers need is shared: which bulk, which upload and part, what the
 * part held per currency, where the bulk stands and what the service took. The rows and the file
 * stay on the computer that sent them.
 */
import type { LedgerGroupSummary, LedgerIntent } from '../ledger/ledgerShapes';
import type { CurrencyTotal, NewTeamBulk, TeamBulkState } from './teamTypes';

const BULK_STATES = new Set<string>(['UPLOADED', 'VALIDATED', 'PROCESSING', 'PROCESSED', 'ERROR']);

/**
 * What the team database should hold for one local bulk, or null when it is none of the team's
 * business: not sent through the team database `server`, not at the service yet, or never sent.
 * `partial`: for a bulk that ended in ERROR after creating some donations, the totals of the rows
 * that got one (null when not known yet; they are worked out from the file the sender kept).
 */
export function bulkToPublish(
  group: LedgerGroupSummary,
  intent: LedgerIntent,
  environmentKey: string,
  server: string,
  partial: CurrencyTotal[] | null = null,
): NewTeamBulk | null {
  const approval = group.approval;
  if (!approval || approval.state !== 'sent' || approval.server !== server) return null;
  // Sent by another computer of the team (the approver's): its bulks are that computer's to record.
  if (approval.sendsHere === false) return null;
  if (!intent.serviceId || !BULK_STATES.has(intent.state)) return null;
  const part = group.parts[intent.part];
  if (!part) return null;
  const state = intent.state as TeamBulkState;
  let takenTotals: CurrencyTotal[] | null = null;
  if (state === 'PROCESSED') takenTotals = part.totals;
  else if (state === 'ERROR' && intent.donationRowKeys?.length === 0) takenTotals = [];
  else if (state === 'ERROR' && (intent.donationRowKeys?.length ?? 0) > 0) takenTotals = partial;
  return {
    environmentKey,
    bulkId: intent.serviceId,
    uploadId: group.id,
    part: intent.part,
    uploadCreatedAt: group.createdAt,
    partTotals: part.totals,
    state,
    takenTotals,
  };
}

/** Whether the team's record of a bulk says all that this computer knows of it. */
export function publishedAlready(
  known: { state: string; takenTotals: CurrencyTotal[] | null } | undefined,
  wanted: NewTeamBulk,
): boolean {
  if (!known || known.state !== wanted.state) return false;
  if (wanted.takenTotals === null) return true;
  return sameTotals(known.takenTotals, wanted.takenTotals);
}

function sameTotals(a: CurrencyTotal[] | null, b: CurrencyTotal[]): boolean {
  if (!a || a.length !== b.length) return false;
  const key = (t: CurrencyTotal) => `${t.currencyCode}:${t.count}:${t.amount}`;
  const left = a.map(key).sort();
  return b
    .map(key)
    .sort()
    .every((k, i) => k === left[i]);
}
