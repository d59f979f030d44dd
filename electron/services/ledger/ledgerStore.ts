import { mkdir, readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { DeskFailure } from '../../../shared/result';
import { databaseOf, type DeskDatabase } from '../db/deskDatabase';
import { importOnce } from '../db/legacyFiles';
import {
  journalLineSchema,
  snapshotSchema,
  type LedgerGroup,
  type LedgerGroupSummary,
  type LedgerIntent,
} from './ledgerShapes';
import { SUMMARY_SQL, summaryText } from './ledgerSummary';

/** The JSON files of version 0.1, imported into the database once. */
const SNAPSHOT = 'ledger.json';
const JOURNAL = 'journal.ndjson';
/** Ledger folders open in this process: the pid in the lease cannot tell two of them apart. */
const openHere = new Set<string>();

/**
 * The local record of every upload and bulk intent, in the data folder's database (one row per
 * upload and per intent attempt). Each put is its own committed transaction with `synchronous=FULL`,
 * so it is on disk before the promise resolves, the guarantee the fsynced journal gave. One process
 * sends from the ledger at a time (a lease row with its pid, taken in a write transaction), because
 * two processes resuming the same upload could send it twice; others read it (Reconcile, the CLI)
 * with `readLedgerRecords`.
 */
export class LedgerStore {
  private groups = new Map<string, LedgerGroup>();
  private intents = new Map<string, LedgerIntent>();
  private queue: Promise<unknown> = Promise.resolve();
  private leaseToken: string | null = null;

  private constructor(
    readonly dir: string,
    private readonly db: DeskDatabase,
  ) {}

  static async open(dir: string): Promise<LedgerStore> {
    await mkdir(dir, { recursive: true });
    const store = new LedgerStore(dir, databaseOf(dirname(dir)));
    store.takeLease();
    try {
      await importLegacyLedger(store.db, dir);
      const records = readRecords(store.db);
      for (const g of records.groups) store.groups.set(g.id, g);
      for (const i of records.intents) store.intents.set(i.attemptId, i);
    } catch (e) {
      store.releaseLease();
      throw e;
    }
    return store;
  }

  private get leaseName(): string {
    return leaseNameOf(this.dir);
  }

  private takeLease(): void {
    if (openHere.has(this.dir)) {
      throw new DeskFailure(
        'BUSY',
        'The upload ledger is already open in this app. Close the other window or command first.',
      );
    }
    const token = randomUUID();
    this.db.transaction(() => {
      const holder = this.db.get<{ pid: number }>('SELECT pid FROM lease WHERE name = ?', this.leaseName);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DeskFailure(
          'BUSY',
          'Another Donation Desk (the app or a command) is using the upload ledger. Close it and try again.',
          { pid: holder.pid },
        );
      }
      // None, or left behind by a process that died (a crash or a kill): take it over.
      this.db.run(
        `INSERT INTO lease (name, pid, token, taken_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET pid = excluded.pid, token = excluded.token, taken_at = excluded.taken_at`,
        this.leaseName,
        process.pid,
        token,
        new Date().toISOString(),
      );
    });
    this.leaseToken = token;
    openHere.add(this.dir);
  }

  private releaseLease(): void {
    if (!this.leaseToken) return;
    this.db.run('DELETE FROM lease WHERE name = ? AND token = ?', this.leaseName, this.leaseToken);
    this.leaseToken = null;
    openHere.delete(this.dir);
  }

  private write(apply: () => void): Promise<void> {
    const run = async (): Promise<void> => {
      if (!this.leaseToken) throw new DeskFailure('CLOSED', 'The upload ledger was closed.');
      apply();
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Durable once resolved. */
  putGroup(group: LedgerGroup): Promise<void> {
    return this.write(() => {
      putGroupRow(this.db, group);
      this.groups.set(group.id, group);
    });
  }

  /** Durable once resolved. */
  putIntent(intent: LedgerIntent): Promise<void> {
    return this.write(() => {
      putIntentRow(this.db, intent);
      this.intents.set(intent.attemptId, intent);
    });
  }

  group(id: string): LedgerGroup | undefined {
    return this.groups.get(id);
  }

  allGroups(): LedgerGroup[] {
    return [...this.groups.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  allIntents(): LedgerIntent[] {
    return [...this.intents.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  intentsOf(groupId: string, part?: number): LedgerIntent[] {
    return this.allIntents().filter((i) => i.groupId === groupId && (part === undefined || i.part === part));
  }

  /** By the service's id or the local attempt id. */
  findIntent(id: string): LedgerIntent | undefined {
    return this.intents.get(id) ?? [...this.intents.values()].find((i) => i.serviceId === id);
  }

  async close(): Promise<void> {
    await this.queue;
    this.releaseLease();
  }
}

/** The lease's name: the ledger folder, relative to the data folder (`uploads`). */
export function leaseNameOf(dir: string): string {
  return `ledger:${basename(dir)}`;
}

/** Ledger writes through this process's connection, per database (what the read cache keys on). */
const ledgerWrites = new WeakMap<object, number>();

function putGroupRow(db: DeskDatabase, group: LedgerGroup): void {
  ledgerWrites.set(db, (ledgerWrites.get(db) ?? 0) + 1);
  // The record and its summary in one statement: both are written, or neither (a crash mid-write).
  db.run(
    `INSERT INTO ledger_group (id, created_at, environment, corrects, body, summary) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, environment = excluded.environment,
       corrects = excluded.corrects, body = excluded.body, summary = excluded.summary`,
    group.id,
    group.createdAt,
    group.environment,
    group.corrects,
    JSON.stringify(group),
    summaryText(group),
  );
}

function putIntentRow(db: DeskDatabase, intent: LedgerIntent): void {
  ledgerWrites.set(db, (ledgerWrites.get(db) ?? 0) + 1);
  db.run(
    `INSERT INTO ledger_intent (attempt_id, service_id, group_id, part, state, created_at, body)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (attempt_id) DO UPDATE SET service_id = excluded.service_id, group_id = excluded.group_id,
       part = excluded.part, state = excluded.state, created_at = excluded.created_at, body = excluded.body`,
    intent.attemptId,
    intent.serviceId,
    intent.groupId,
    intent.part,
    intent.state,
    intent.createdAt,
    JSON.stringify(intent),
  );
}

function readRecords(db: DeskDatabase): { groups: LedgerGroup[]; intents: LedgerIntent[] } {
  return {
    groups: db
      .all<{ body: string }>('SELECT body FROM ledger_group ORDER BY created_at, id')
      .map((r) => JSON.parse(r.body) as LedgerGroup),
    intents: db
      .all<{ body: string }>('SELECT body FROM ledger_intent ORDER BY created_at, attempt_id')
      .map((r) => JSON.parse(r.body) as LedgerIntent),
  };
}

/**
 * Every upload and intent, oldest first, without the lease: for readers beside the process that
 * sends (Reconcile, the CLI while the app is open). Imports version 0.1's files first if needed.
 */
export async function readLedgerRecords(
  dir: string,
): Promise<{ groups: LedgerGroup[]; intents: LedgerIntent[] }> {
  const db = databaseOf(dirname(dir));
  await importLegacyLedger(db, dir);
  // Parsed once per change: every page Reconcile shows asks again, and an upload's record carries
  // each row's key and fingerprint (a few MB per 100,000 rows). Callers never modify what they get.
  // A change is a ledger write in this process, or any commit by another process.
  const stamp = `${db.dataVersion()}:${ledgerWrites.get(db) ?? 0}`;
  const kept = lastRead.get(db);
  if (kept?.stamp === stamp) return kept.records;
  const records = readRecords(db);
  lastRead.set(db, { stamp, records });
  return records;
}

const lastRead = new WeakMap<
  object,
  { stamp: string; records: { groups: LedgerGroup[]; intents: LedgerIntent[] } }
>();

/**
 * Every upload without its per-row arrays, and every intent, oldest first: what Reconcile's pages,
 * totals and report need. Each upload's summary is kept beside its record (`ledgerSummary.ts`), so
 * nothing parses the rows' keys and fingerprints; a row without one (none is written so) gets it
 * made by SQLite from the record. Read once per change of the database, as `readLedgerRecords`.
 */
export async function readLedgerSummaries(
  dir: string,
): Promise<{ groups: LedgerGroupSummary[]; intents: LedgerIntent[] }> {
  const db = databaseOf(dirname(dir));
  await importLegacyLedger(db, dir);
  const stamp = `${db.dataVersion()}:${ledgerWrites.get(db) ?? 0}`;
  const kept = lastSummaries.get(db);
  if (kept?.stamp === stamp) return kept.records;
  const records = {
    groups: db
      .all<{ summary: string }>(
        `SELECT coalesce(g.summary, ${SUMMARY_SQL}) AS summary FROM ledger_group AS g ORDER BY g.created_at, g.id`,
      )
      .map((r) => JSON.parse(r.summary) as LedgerGroupSummary),
    intents: db
      .all<{ body: string }>('SELECT body FROM ledger_intent ORDER BY created_at, attempt_id')
      .map((r) => JSON.parse(r.body) as LedgerIntent),
  };
  lastSummaries.set(db, { stamp, records });
  return records;
}

const lastSummaries = new WeakMap<
  object,
  { stamp: string; records: { groups: LedgerGroupSummary[]; intents: LedgerIntent[] } }
>();

/** One upload's whole record (with its rows' keys), for the rare reader of a summary that needs them. */
export function readLedgerGroup(dir: string, id: string): LedgerGroup | undefined {
  const row = databaseOf(dirname(dir)).get<{ body: string }>(
    'SELECT body FROM ledger_group WHERE id = ?',
    id,
  );
  return row ? (JSON.parse(row.body) as LedgerGroup) : undefined;
}

/**
 * Version 0.1's snapshot plus journal, replayed as it did (each line replaces the record with the
 * same id; a torn last line was never acknowledged and is ignored), written into the database once.
 */
async function importLegacyLedger(db: DeskDatabase, dir: string): Promise<void> {
  const files = [join(dir, SNAPSHOT), join(dir, JOURNAL)];
  await importOnce(db, leaseNameOf(dir), files, async () => {
    const groups = new Map<string, LedgerGroup>();
    const intents = new Map<string, LedgerIntent>();
    const snapshotText = await readFile(files[0] as string, 'utf8').catch(() => null);
    if (snapshotText !== null && snapshotText.trim() !== '') {
      const parsed = snapshotSchema.safeParse(safeJson(snapshotText));
      if (!parsed.success) {
        throw new DeskFailure(
          'LEDGER_UNREADABLE',
          `The upload ledger ${files[0]} could not be read. It was left untouched; ask support before uploading again.`,
        );
      }
      for (const g of parsed.data.groups) groups.set(g.id, g);
      for (const i of parsed.data.intents) intents.set(i.attemptId, i);
    }
    const journal = await readFile(files[1] as string, 'utf8').catch(() => '');
    const lines = journal.split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const parsed = journalLineSchema.safeParse(safeJson(line));
      if (!parsed.success) {
        // Only the last line can be torn by a crash mid-append; anything else is damage worth stopping for.
        if (index >= lines.length - 2) return;
        throw new DeskFailure(
          'LEDGER_UNREADABLE',
          `The upload ledger journal ${files[1]} is damaged at line ${index + 1}. It was left untouched; ask support before uploading again.`,
        );
      }
      if (parsed.data.k === 'g') groups.set(parsed.data.v.id, parsed.data.v);
      else intents.set(parsed.data.v.attemptId, parsed.data.v);
    });
    return {
      detail: { groups: groups.size, intents: intents.size },
      write: () => {
        for (const g of groups.values()) putGroupRow(db, g);
        for (const i of intents.values()) putIntentRow(db, i);
      },
    };
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
