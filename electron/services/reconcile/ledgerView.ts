import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  journalLineSchema,
  snapshotSchema,
  SENT_STATES,
  type LedgerGroup,
  type LedgerIntent,
} from '../ledger/ledgerSchema';

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
 * A read-only picture of the upload ledger (snapshot, then journal replayed over it). The upload
 * services own the ledger and its lock; reconciliation only needs to know which bulks exist and which
 * rows each carried, so it reads the files instead of taking the lock from the upload flow. A line
 * being appended while this reads is simply skipped: it shows up on the next read.
 */
export async function readLedgerView(ledgerDir: string): Promise<LedgerView> {
  const groups = new Map<string, LedgerGroup>();
  const intents = new Map<string, LedgerIntent>();
  const snapshotText = await readFile(join(ledgerDir, 'ledger.json'), 'utf8').catch(() => null);
  if (snapshotText !== null) {
    const parsed = snapshotSchema.safeParse(safeJson(snapshotText));
    if (parsed.success) {
      for (const g of parsed.data.groups) groups.set(g.id, g);
      for (const i of parsed.data.intents) intents.set(i.attemptId, i);
    }
  }
  const journal = await readFile(join(ledgerDir, 'journal.ndjson'), 'utf8').catch(() => '');
  for (const line of journal.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = journalLineSchema.safeParse(safeJson(line));
    if (!parsed.success) continue;
    if (parsed.data.k === 'g') groups.set(parsed.data.v.id, parsed.data.v);
    else intents.set(parsed.data.v.attemptId, parsed.data.v);
  }
  const bulks: LedgerBulk[] = [];
  const ordered = [...intents.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
