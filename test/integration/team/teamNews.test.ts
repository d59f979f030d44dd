import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import type { TeamNews } from '../../../electron/services/team/teamNews';
import { TeamNewsHub } from '../../../electron/services/team/teamNewsHub';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../support/teamCluster';

/*
 * The team's news at once, on a real cluster: two team connections (alice's and bob's computers),
 * no polling at all, so whatever alice hears came by LISTEN/NOTIFY. And when the listening
 * connection is ended by the server, the news of the meantime is not lost: the listener comes back
 * and says so (resync), and hears what follows.
 */

let team: TeamCluster;
let as: (login: TeamLogin) => pg.Client;
let alice: PgTeamDatabase;
let bob: PgTeamDatabase;
const hubs: TeamNewsHub[] = [];

beforeAll(async () => {
  team = await startTeamCluster();
  as = await team.connectEveryone();
  await as('carol').query("UPDATE desk.team_rule SET approval = 'always'");
  alice = new PgTeamDatabase({ url: team.urlOf('alice') });
  bob = new PgTeamDatabase({ url: team.urlOf('bob') });
}, 120_000);

afterAll(async () => {
  for (const hub of hubs) await hub.close();
  await alice?.close();
  await bob?.close();
  await team?.stop();
});

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** alice's upload, with its file stored as every submission stores it (an approval needs it). */
async function submit(): Promise<{ id: string; file: string }> {
  const id = randomUUID();
  const bytes = Buffer.from(id);
  const file = sha(bytes);
  await as('alice').query(
    `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
     VALUES ($1, 'March donations', 'sandbox', 'sandbox|http://127.0.0.1', 'laptop', $2, 2, $3, '{"month":"2026-03"}')`,
    [id, file, JSON.stringify([{ currencyCode: 'EUR', amount: 5000, count: 2 }])],
  );
  await as('alice').query('SELECT desk.store_upload_file($1, 0, $2)', [id, bytes]);
  return { id, file };
}

/** A hub on `db` that keeps every piece of news it hears. */
async function listen(db: PgTeamDatabase, retry = { baseMs: 200, maxMs: 1_000 }) {
  const heard: TeamNews[] = [];
  const hub = new TeamNewsHub({ current: () => db, onNews: (n) => heard.push(n), retry });
  hubs.push(hub);
  await hub.ensure();
  expect(hub.listening()).toBe(true);
  return { hub, heard };
}

/** Waits (up to a generous time) until `check` holds. */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Not seen within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the team’s news by LISTEN/NOTIFY', () => {
  it('bob hears alice’s submission, and alice hears bob’s decision, with no polling', async () => {
    const bobs = await listen(bob);
    const alices = await listen(alice);
    const { id, file } = await submit();
    await until(
      () => bobs.heard.some((n) => n.kind === 'submitted' && n.upload === id),
      'the submission at bob’s',
    );
    await bob.decide(id, 'approve', file, null);
    await until(
      () => alices.heard.some((n) => n.kind === 'approved' && n.upload === id),
      'the approval at alice’s',
    );
    // A wait sleeping on the news wakes with it (the command line's --wait).
    const second = await submit();
    await until(() => alices.heard.some((n) => n.upload === second.id), 'her own submission');
    const woken = alices.hub.next(60_000);
    await bob.decide(second.id, 'reject', second.file, 'wrong month');
    expect(await woken).toEqual({ kind: 'rejected', upload: second.id });
  });

  it('a notification names the upload and what happened, nothing more', async () => {
    const bobs = await listen(bob);
    const { id } = await submit();
    await until(() => bobs.heard.some((n) => n.upload === id), 'the submission');
    for (const n of bobs.heard) expect(Object.keys(n).sort()).toEqual(['kind', 'upload']);
  });

  it('when the server ends the listening connection, it listens again and says what to read again', async () => {
    const alices = await listen(alice, { baseMs: 1_500, maxMs: 3_000 });
    const { rows } = await team.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'Donation Desk news' AND usename = 'alice') t",
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    await until(() => !alices.hub.listening(), 'the listener noticing the drop');
    // Decided while nobody listens at alice's: she hears of it as a resync once back.
    const missed = await submit();
    await bob.decide(missed.id, 'approve', missed.file, null);
    await until(() => alices.hub.listening(), 'listening again', 20_000);
    await until(() => alices.heard.some((n) => n.kind === 'resync'), 'the resync');
    expect(alices.heard.some((n) => n.upload === missed.id && n.kind === 'approved')).toBe(false);
    // And the news after that comes by notification again.
    const next = await submit();
    await bob.decide(next.id, 'approve', next.file, null);
    await until(() => alices.heard.some((n) => n.kind === 'approved' && n.upload === next.id), 'the next');
  });

  it('closing the hub closes its connection', async () => {
    const { hub } = await listen(bob);
    const count = async () =>
      (
        await team.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'Donation Desk news' AND usename = 'bob'",
        )
      ).rows[0]?.n ?? 0;
    const before = await count();
    await hub.close();
    const end = Date.now() + 10_000;
    while ((await count()) >= before && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(await count()).toBe(before - 1);
  });
});
