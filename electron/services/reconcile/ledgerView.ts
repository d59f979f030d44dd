import { SENT_STATES, type LedgerGroup, type LedgerIntent } from '../ledger/ledgerSchema';
import { readLedgerRecords } from '../ledger/ledgerStore';

/** A bulk the service knows, with the upload and part it carries. */
export interface LedgerBulk {
  bulkId: string;
  group: LedgerGroup;
  intent: LedgerIntent;
}

export interface LedgerView {
  groups: LedgerGroup[];
  /** Every intent attempt, oldest first. */
  intents: LedgerIntent[];
  bulks: LedgerBulk[];
  byBulkId: Map<string, LedgerBulk>;
}

/**
 * A read-only picture of the upload ledger, read from the data folder's database. The upload
 * services own the ledger and its lease; reconciliation only needs to know which bulks exist and
 * which rows each carried, so it reads without taking the lease from the upload flow.
 */
export async function readLedgerView(ledgerDir: string): Promise<LedgerView> {
  const records = await readLedgerRecords(ledgerDir);
  const groups = new Map(records.groups.map((g) => [g.id, g]));
  const intents = records.intents;
  const bulks: LedgerBulk[] = [];
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
