import {
  SENT_STATES,
  type LedgerGroup,
  type LedgerGroupSummary,
  type LedgerIntent,
} from '../ledger/ledgerShapes';
import { readLedgerRecords, readLedgerSummaries } from '../ledger/ledgerStore';

/** A bulk the service knows, with the upload and part it carries. */
export interface LedgerBulk<G extends LedgerGroupSummary = LedgerGroup> {
  bulkId: string;
  group: G;
  intent: LedgerIntent;
}

/**
 * The ledger as Reconcile reads it: whole uploads (`LedgerView`, for matching donations to rows) or
 * their summaries without the per-row arrays (`LedgerView<LedgerGroupSummary>`, for pages and totals).
 */
export interface LedgerView<G extends LedgerGroupSummary = LedgerGroup> {
  groups: G[];
  /** Every intent attempt, oldest first. */
  intents: LedgerIntent[];
  bulks: Array<LedgerBulk<G>>;
  byBulkId: Map<string, LedgerBulk<G>>;
}

export type LedgerSummaryView = LedgerView<LedgerGroupSummary>;

/**
 * A read-only picture of the upload ledger, read from the data folder's database. The upload
 * services own the ledger and its lease; reconciliation only needs to know which bulks exist and
 * which rows each carried, so it reads without taking the lease from the upload flow. Whole records:
 * for a refresh, which matches each donation to its row.
 */
export async function readLedgerView(ledgerDir: string): Promise<LedgerView> {
  return viewOf(await readLedgerRecords(ledgerDir));
}

/** The same picture without the rows' keys and fingerprints: what pages, totals and the report need. */
export async function readLedgerSummaryView(ledgerDir: string): Promise<LedgerSummaryView> {
  return viewOf(await readLedgerSummaries(ledgerDir));
}

function viewOf<G extends LedgerGroupSummary>(records: {
  groups: G[];
  intents: LedgerIntent[];
}): LedgerView<G> {
  const groups = new Map(records.groups.map((g) => [g.id, g]));
  const intents = records.intents;
  const bulks: Array<LedgerBulk<G>> = [];
  const ordered = [...intents].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const intent of ordered) {
    const group = groups.get(intent.groupId);
    const state = intent.state as Parameters<typeof SENT_STATES.has>[0];
    if (!group || !intent.serviceId || !SENT_STATES.has(state)) continue;
    bulks.push({ bulkId: intent.serviceId, group, intent });
  }
  return {
    groups: [...groups.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    intents: ordered,
    bulks,
    byBulkId: new Map(bulks.map((b) => [b.bulkId, b])),
  };
}
