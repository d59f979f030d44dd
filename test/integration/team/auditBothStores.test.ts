import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditStore, type NewAuditEntry } from '../../../electron/services/audit/auditStore';
import { closeDatabase, databaseOf } from '../../../electron/services/db/deskDatabase';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import type { AuditEntry, AuditFilter } from '../../../shared/contract/auditChannels';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';

/*
 * One suite, two stores: the audit trail of a data folder (SQLite, working alone) and the team's
 * (PostgreSQL, as a team) answer every filter of the Audit view and of `donation-desk audit` the
 * same, page the same, and refuse to change or remove an entry, whatever the client.
 */

interface TrailUnderTest {
  page(
    filter: AuditFilter,
    before?: number,
    limit?: number,
  ): Promise<{ entries: AuditEntry[]; total: number; nextBefore: number | null }>;
  all(filter: AuditFilter): Promise<AuditEntry[]>;
  /** Tries to rewrite and to remove an entry with raw SQL, as a modified client would. */
  tamper(): Promise<Array<unknown>>;
}

const entry = (n: number, fields: Partial<NewAuditEntry>): NewAuditEntry => ({
  at: `2026-11-${String(10 + n).padStart(2, '0')}T09:00:00.000Z`,
  person: 'alice',
  computer: 'alice-laptop',
  environment: 'sandbox',
  action: 'cell-edit',
  details: { n },
  ...fields,
});

/** Nine entries by two people over nine days: imports, edits, an upload and a dismissal. */
const ENTRIES: NewAuditEntry[] = [
  entry(0, { action: 'import', workspaceId: 'w1', details: { fileName: 'november.xlsx' } }),
  entry(1, { workspaceId: 'w1', details: { row: 2, column: 'Amount', from: '10', to: '12' } }),
  entry(2, { workspaceId: 'w1', details: { row: 3, column: 'Amount', from: '5', to: '6' } }),
  entry(3, { action: 'upload', workspaceId: 'w1', uploadId: 'u1', details: { rows: 3 } }),
  entry(4, { person: 'bob', computer: 'bob-laptop', action: 'import', workspaceId: 'w2' }),
  entry(5, { person: 'bob', computer: 'bob-laptop', workspaceId: 'w2' }),
  entry(6, { action: 'dismiss', donationId: 'd7', details: { reason: 'Paid by cheque' } }),
  entry(7, { person: 'bob', computer: 'bob-laptop', action: 'upload', workspaceId: 'w2', uploadId: 'u2' }),
  entry(8, { action: 'settings', details: { setting: 'environment', from: 'offline', to: 'sandbox' } }),
];

const FILTERS: Array<[string, AuditFilter]> = [
  ['everything', {}],
  ['a workspace', { workspaceId: 'w1' }],
  ['an upload', { uploadId: 'u2' }],
  ['a donation', { donationId: 'd7' }],
  ['a person', { person: 'bob' }],
  ['a person and a workspace', { person: 'alice', workspaceId: 'w1' }],
  ['from a day', { since: '2026-11-15' }],
  ['up to a day', { until: '2026-11-12' }],
  ['between two days', { since: '2026-11-12', until: '2026-11-15' }],
  ['nobody', { person: 'carol' }],
];

/** What must agree: everything an entry says, not the number each store gave it. */
const said = (entries: AuditEntry[]) => entries.map(({ seq: _seq, ...rest }) => rest);

let team: TeamCluster;
let dir: string;
let alice: PgTeamDatabase;
let bob: PgTeamDatabase;

const stores: Record<'SQLite (alone)' | 'PostgreSQL (team)', () => TrailUnderTest> = {
  'SQLite (alone)': () => {
    const db = databaseOf(dir);
    const store = new AuditStore(db);
    return {
      page: async (filter, before, limit) =>
        store.page(filter, { ...(before !== undefined ? { before } : {}), ...(limit ? { limit } : {}) }),
      all: async (filter) => [...store.all(filter)],
      tamper: async () =>
        Promise.all(
          [
            "UPDATE audit SET person = 'mallory'",
            'DELETE FROM audit',
            'INSERT OR REPLACE INTO audit SELECT * FROM audit',
          ].map(async (sql) => {
            try {
              db.run(sql);
              return null;
            } catch (e) {
              return e;
            }
          }),
        ),
    };
  },
  'PostgreSQL (team)': () => ({
    page: (filter, before, limit) => alice.audit.list(filter, before, limit),
    all: (filter) => alice.audit.all(filter),
    tamper: async () => {
      const raw = await team.connect('carol');
      try {
        return await Promise.all(
          ["UPDATE desk.audit SET person = 'mallory'", 'DELETE FROM desk.audit', 'TRUNCATE desk.audit'].map(
            (sql) =>
              raw.query(sql).then(
                () => null,
                (e: unknown) => e,
              ),
          ),
        );
      } finally {
        await raw.end();
      }
    },
  }),
};

beforeAll(async () => {
  team = await startTeamCluster();
  dir = await mkdtemp(join(tmpdir(), 'dd-audit-both-'));
  const local = new AuditStore(databaseOf(dir));
  for (const e of ENTRIES) local.insert(e);
  // In the team's trail the person is the login that wrote it: each pushes their own entries.
  alice = new PgTeamDatabase({ url: team.urlOf('alice') });
  bob = new PgTeamDatabase({ url: team.urlOf('bob') });
  let seq = 0;
  for (const e of ENTRIES) {
    const writer = e.person === 'bob' ? bob : alice;
    await writer.audit.push(`${e.person}-folder`, [{ ...e, originSeq: ++seq }]);
  }
  // The team trail's time is the server's, taken when an entry is copied: here, as if each had been
  // copied on the day its computer wrote it (the superuser moves the times, the filters are the test).
  await team.query(`ALTER TABLE desk.audit DISABLE TRIGGER audit_no_change;
    UPDATE desk.audit SET at = reported_at WHERE reported_at IS NOT NULL;
    ALTER TABLE desk.audit ENABLE TRIGGER audit_no_change`);
}, 120_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await team?.stop();
  closeDatabase(dir);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('the audit trail in %s', (name) => {
  const trail = () => stores[name]();

  it.each(FILTERS)('answers %s with the same entries, newest first', async (_label, filter) => {
    const expected = ENTRIES.filter(
      (e) =>
        (!filter.workspaceId || e.workspaceId === filter.workspaceId) &&
        (!filter.uploadId || e.uploadId === filter.uploadId) &&
        (!filter.donationId || e.donationId === filter.donationId) &&
        (!filter.person || e.person === filter.person) &&
        (!filter.since || e.at.slice(0, 10) >= filter.since) &&
        (!filter.until || e.at.slice(0, 10) <= filter.until),
    ).reverse();
    const all = await trail().all(filter);
    expect(said(all)).toEqual(
      expected.map((e) => ({
        at: e.at,
        person: e.person,
        computer: e.computer,
        environment: e.environment,
        action: e.action,
        workspaceId: e.workspaceId ?? null,
        uploadId: e.uploadId ?? null,
        donationId: e.donationId ?? null,
        details: e.details,
      })),
    );
    const first = await trail().page(filter, undefined, 50);
    expect(first.total).toBe(expected.length);
    expect(said(first.entries)).toEqual(said(all));
  });

  it('pages newest first, three at a time, to the end and no further', async () => {
    const pages: AuditEntry[][] = [];
    let before: number | undefined;
    for (;;) {
      const page = await trail().page({}, before, 3);
      pages.push(page.entries);
      expect(page.total).toBe(ENTRIES.length);
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 3]);
    expect(said(pages.flat())).toEqual(said(await trail().all({})));
  });

  it('refuses to change or remove an entry, even with raw SQL', async () => {
    const refusals = await trail().tamper();
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(Error);
    expect(await trail().all({})).toHaveLength(ENTRIES.length);
    expect((await trail().all({ person: 'mallory' })).length).toBe(0);
  });
});
