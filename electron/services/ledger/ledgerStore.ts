import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DeskFailure } from '../../../shared/result';
import { appendDurable, writeFileAtomic } from '../storage/atomicFile';
import {
  journalLineSchema,
  snapshotSchema,
  type JournalLine,
  type LedgerGroup,
  type LedgerIntent,
} from './ledgerSchema';

const SNAPSHOT = 'ledger.json';
const JOURNAL = 'journal.ndjson';
const LOCK = 'ledger.lock';
/** Fold the journal into the snapshot after this many lines, so opening stays quick. */
const COMPACT_AFTER = 2000;
/** Ledger folders open in this process: the pid in the lock file cannot tell two of them apart. */
const openHere = new Set<string>();

/**
 * The local record of every upload and bulk intent. A snapshot written atomically plus a journal of
 * whole records appended with fsync: each line replaces the record with the same id, so replaying
 * the journal over the snapshot is idempotent and a crash at any point leaves a readable ledger (a
 * torn last line is ignored; it was never acknowledged). One process owns the ledger at a time
 * (lock file with its pid), because two processes resuming the same upload could send it twice.
 */
export class LedgerStore {
  private groups = new Map<string, LedgerGroup>();
  private intents = new Map<string, LedgerIntent>();
  private queue: Promise<unknown> = Promise.resolve();
  private journalLines = 0;
  private locked = false;

  private constructor(readonly dir: string) {}

  static async open(dir: string): Promise<LedgerStore> {
    const store = new LedgerStore(dir);
    await mkdir(dir, { recursive: true });
    await store.lock();
    await store.load();
    return store;
  }

  private async lock(): Promise<void> {
    const path = join(this.dir, LOCK);
    if (openHere.has(this.dir)) {
      throw new DeskFailure(
        'BUSY',
        'The upload ledger is already open in this app. Close the other window or command first.',
      );
    }
    for (let tries = 0; tries < 3; tries++) {
      try {
        const handle = await open(path, 'wx');
        await handle.writeFile(String(process.pid));
        await handle.sync();
        await handle.close();
        this.locked = true;
        openHere.add(this.dir);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DeskFailure(
          'BUSY',
          'Another Donation Desk (the app or a command) is using the upload ledger. Close it and try again.',
          { pid: holder },
        );
      }
      // Left behind by a process that died (a crash or a kill): take it over.
      await rm(path, { force: true });
    }
    throw new DeskFailure('BUSY', 'Could not take the upload ledger lock. Try again.');
  }

  private async load(): Promise<void> {
    const snapshotText = await readFile(join(this.dir, SNAPSHOT), 'utf8').catch(() => null);
    if (snapshotText !== null) {
      const parsed = snapshotSchema.safeParse(safeJson(snapshotText));
      if (!parsed.success) {
        throw new DeskFailure(
          'LEDGER_UNREADABLE',
          'The upload ledger could not be read. It was left untouched; ask support before uploading again.',
        );
      }
      for (const g of parsed.data.groups) this.groups.set(g.id, g);
      for (const i of parsed.data.intents) this.intents.set(i.attemptId, i);
    }
    const journal = await readFile(join(this.dir, JOURNAL), 'utf8').catch(() => '');
    const lines = journal.split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const parsed = journalLineSchema.safeParse(safeJson(line));
      if (!parsed.success) {
        // Only the last line can be torn by a crash mid-append; anything else is damage worth stopping for.
        if (index >= lines.length - 2) return;
        throw new DeskFailure(
          'LEDGER_UNREADABLE',
          'The upload ledger journal is damaged. It was left untouched; ask support before uploading again.',
        );
      }
      this.apply(parsed.data);
    });
    await this.compact();
  }

  private apply(line: JournalLine): void {
    if (line.k === 'g') this.groups.set(line.v.id, line.v);
    else this.intents.set(line.v.attemptId, line.v);
  }

  /** Writes the snapshot, then empties the journal; a crash in between only replays lines already folded in. */
  private async compact(): Promise<void> {
    const snapshot = { version: 1, groups: [...this.groups.values()], intents: [...this.intents.values()] };
    await writeFileAtomic(join(this.dir, SNAPSHOT), JSON.stringify(snapshot));
    await writeFileAtomic(join(this.dir, JOURNAL), '');
    this.journalLines = 0;
  }

  private write(line: JournalLine): Promise<void> {
    const run = async (): Promise<void> => {
      await appendDurable(join(this.dir, JOURNAL), `${JSON.stringify(line)}\n`);
      this.apply(line);
      if (++this.journalLines >= COMPACT_AFTER) await this.compact();
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Durable once resolved. */
  putGroup(group: LedgerGroup): Promise<void> {
    return this.write({ k: 'g', v: group });
  }

  /** Durable once resolved. */
  putIntent(intent: LedgerIntent): Promise<void> {
    return this.write({ k: 'i', v: intent });
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
    if (this.locked) {
      this.locked = false;
      openHere.delete(this.dir);
      await rm(join(this.dir, LOCK), { force: true });
    }
  }
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
