import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from '@photostructure/sqlite';
import { closeDatabase, databaseOf, DATABASE_FILE } from '../db/deskDatabase';
import { SCHEMA_VERSION, SQLITE_MIGRATIONS } from '../db/schema';
import { LedgerStore, readLedgerSummaries } from './ledgerStore';
import { SUMMARY_SQL, summaryOf } from './ledgerSummary';
import type { LedgerGroup } from './ledgerShapes';
import { group } from './testing/ledgerGroup';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-summary-'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

const ledgerDir = (): string => join(dir, 'uploads');

/** A part of `g` with other rows (its index, keys, numbers and fingerprints). */
function withPart(g: LedgerGroup, rowKeys: number[]): LedgerGroup {
  const first = g.parts[0] as LedgerGroup['parts'][number];
  return {
    ...g,
    parts: [
      ...g.parts,
      {
        ...first,
        index: g.parts.length,
        rowKeys,
        rowNumbers: rowKeys.map((k) => (k % 3 === 0 ? null : k + 1)),
        fingerprints: rowKeys.map((k) => `f${k}`),
        totals: [
          { currencyCode: 'EUR', count: rowKeys.length, amount: 7 * rowKeys.length },
          { currencyCode: 'USD', count: 1, amount: 1 },
        ],
        file: `files/${g.id}-${g.parts.length}.json.gz`,
      },
    ],
  };
}

/** Uploads of the shapes the ledger holds, each a day apart. */
function shapes(): LedgerGroup[] {
  const at = (day: number) => `2026-11-${String(10 + day).padStart(2, '0')}T05:00:00.000Z`;
  const plain = { ...group('plain', [1, 2, 3], ['f1', 'f2', 'f3']), createdAt: at(0) };
  const parts = {
    ...withPart(withPart(group('parts', [1, 2], ['a', 'b']), [3, 4, 5]), [6]),
    createdAt: at(1),
  };
  // Replacing declined donations: rows in two of three parts, one key in no part, keys out of order.
  const replacing: LedgerGroup = {
    ...withPart(withPart(group('replacing', [10, 11, 12], ['a', 'b', 'c']), [20, 21, 22]), [30]),
    createdAt: at(2),
    corrects: 'svc-failed',
    replaces: [
      { rowKey: 21, donationId: 'd-3' },
      { rowKey: 12, donationId: 'd-1' },
      { rowKey: 10, donationId: 'd-2' },
      { rowKey: 99, donationId: 'd-4' },
    ],
  };
  // Replacing, but none of its rows in the part: the part says so with an empty list.
  const noneHeld: LedgerGroup = {
    ...group('none-held', [5], ['e']),
    createdAt: at(3),
    replaces: [{ rowKey: 6, donationId: 'd-9' }],
  };
  // Written before replacements were recorded (no `replaces`) and before team mode (no `approval`).
  const old = { ...group('old', [1], ['x']), createdAt: at(4) } as Partial<LedgerGroup>;
  delete old.replaces;
  // Team mode: approved and sent elsewhere, then stopped; words with quotes, accents and a backslash.
  const team: LedgerGroup = {
    ...group('team', [7, 8], ['g', 'h']),
    createdAt: at(5),
    workspaceName: 'Café “Gifts” \\ 2026 ✓',
    referenceKey: null,
    stopped: { at: at(6), reason: 'The upload host refused the file.' },
    approval: {
      server: 'db.example:5432/desk',
      fileSha256: 'ff'.repeat(32),
      needed: true,
      state: 'sent',
      preparer: 'ana',
      decidedBy: 'ben',
      decidedAt: at(5),
      reason: null,
      sender: 'approver',
      sendsHere: false,
      sentBy: 'ben',
      sentFrom: 'desk-2',
    },
  };
  const empty: LedgerGroup = { ...group('empty', [], []), createdAt: at(7), parts: [] };
  return [plain, parts, replacing, noneHeld, old as LedgerGroup, team, empty];
}

/** How the summaries were read before version 7: made by SQLite from each record at every read. */
const READ_BEFORE = `json_set(g.body, '$.parts', json((
  SELECT json_group_array(json(CASE
    WHEN json_array_length(g.body, '$.replaces') > 0 THEN json_set(
      json_remove(p.value, '$.rowKeys', '$.rowNumbers', '$.fingerprints'), '$.replacedRowKeys',
      json((SELECT json_group_array(k.value ORDER BY k.key) FROM json_each(p.value, '$.rowKeys') AS k
        WHERE k.value IN (SELECT r.value ->> 'rowKey' FROM json_each(g.body, '$.replaces') AS r))))
    ELSE json_remove(p.value, '$.rowKeys', '$.rowNumbers', '$.fingerprints') END) ORDER BY p.key)
  FROM json_each(g.body, '$.parts') AS p)))`;

/** What was read before version 7 from each stored record. */
function madeFromRecords(): unknown[] {
  return databaseOf(dir)
    .all<{ s: string }>(`SELECT ${READ_BEFORE} AS s FROM ledger_group AS g ORDER BY g.created_at, g.id`)
    .map((r) => JSON.parse(r.s) as unknown);
}

const stored = (): unknown[] =>
  databaseOf(dir)
    .all<{ summary: string }>('SELECT summary FROM ledger_group ORDER BY created_at, id')
    .map((r) => JSON.parse(r.summary) as unknown);

describe("each upload's summary, kept beside its record", () => {
  it('is exactly what was made from the record, for uploads of every shape, and is what Reconcile reads', async () => {
    const store = await LedgerStore.open(ledgerDir());
    for (const g of shapes()) await store.putGroup(g);
    expect(stored()).toStrictEqual(madeFromRecords());
    expect((await readLedgerSummaries(ledgerDir())).groups).toStrictEqual(madeFromRecords());
    // The replacing rows each part holds, in the part's order; none of the per-row arrays.
    const replacing = (await readLedgerSummaries(ledgerDir())).groups.find((g) => g.id === 'replacing');
    expect(replacing?.parts.map((p) => p.replacedRowKeys)).toEqual([[10, 12], [21], []]);
    expect(replacing?.parts.some((p) => 'rowKeys' in p || 'fingerprints' in p || 'rowNumbers' in p)).toBe(
      false,
    );

    // Written again (stopped, then approved): the summary follows the record.
    const [plain] = shapes() as [LedgerGroup];
    await store.putGroup({ ...plain, stopped: { at: plain.createdAt, reason: 'Stopped by hand.' } });
    await store.putGroup({ ...withPart(plain, [4, 5]), replaces: [{ rowKey: 5, donationId: 'd-5' }] });
    expect(stored()).toStrictEqual(madeFromRecords());
    expect((await readLedgerSummaries(ledgerDir())).groups).toStrictEqual(madeFromRecords());
    expect((await readLedgerSummaries(ledgerDir())).groups[0]?.parts.map((p) => p.replacedRowKeys)).toEqual([
      [],
      [5],
    ]);
    await store.close();
  });

  it('is read without the records: the rows’ arrays are not parsed', async () => {
    const store = await LedgerStore.open(ledgerDir());
    for (const g of shapes()) await store.putGroup(g);
    await store.close();
    const expected = madeFromRecords();
    // Records no reader of summaries could parse: the summaries are read all the same.
    databaseOf(dir).run(`UPDATE ledger_group SET body = 'not json'`);
    expect((await readLedgerSummaries(ledgerDir())).groups).toStrictEqual(expected);
  });

  it('is what the app writes (summaryOf) and what version 7 fills in (SUMMARY_SQL), for every shape', () => {
    const made = (sql: string, g: LedgerGroup): unknown =>
      JSON.parse(
        databaseOf(dir).get<{ s: string }>(
          `SELECT ${sql} AS s FROM (SELECT ? AS body) AS g`,
          JSON.stringify(g),
        )?.s ?? 'null',
      );
    // Besides the ledger's shapes, keys repeated in a part and in the list of replaced rows.
    const repeated: LedgerGroup = {
      ...group('repeated', [4, 2, 2, 3, 1], ['a', 'b', 'c', 'd', 'e']),
      replaces: [
        { rowKey: 2, donationId: 'd-1' },
        { rowKey: 2, donationId: 'd-2' },
        { rowKey: 1, donationId: 'd-3' },
      ],
    };
    for (const g of [...shapes(), repeated]) {
      const before = made(READ_BEFORE, g);
      expect(JSON.parse(JSON.stringify(summaryOf(g))), g.id).toStrictEqual(before);
      expect(made(SUMMARY_SQL, g), g.id).toStrictEqual(before);
    }
    expect(summaryOf(repeated).parts[0]?.replacedRowKeys).toEqual([2, 2, 1]);
  });
});

describe('a data folder written before version 7', () => {
  it('opens, and every upload recorded then gets its summary, as it was read before', async () => {
    const raw = new DatabaseSync(join(dir, DATABASE_FILE));
    for (const m of SQLITE_MIGRATIONS.filter((x) => x.version !== null && x.version <= 6)) raw.exec(m.text);
    raw.exec('PRAGMA user_version = 6');
    const insert = raw.prepare(
      'INSERT INTO ledger_group (id, created_at, environment, corrects, body) VALUES (?, ?, ?, ?, ?)',
    );
    for (const g of shapes()) insert.run(g.id, g.createdAt, g.environment, g.corrects, JSON.stringify(g));
    raw.close();

    const db = databaseOf(dir);
    expect(db.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(stored()).toStrictEqual(madeFromRecords());
    expect(stored()).toStrictEqual(
      [...shapes()]
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((g) => JSON.parse(JSON.stringify(summaryOf(g))) as unknown),
    );
    expect((await readLedgerSummaries(ledgerDir())).groups).toStrictEqual(madeFromRecords());
  });

  it('reads an upload left without a summary from its record', async () => {
    const store = await LedgerStore.open(ledgerDir());
    for (const g of shapes()) await store.putGroup(g);
    await store.close();
    databaseOf(dir).run(`UPDATE ledger_group SET summary = NULL WHERE id IN ('replacing', 'old')`);
    expect((await readLedgerSummaries(ledgerDir())).groups).toStrictEqual(madeFromRecords());
  });
});
