import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../support/teamCluster';
import { expectRefused as refused } from './refused';

/*
 * "The approver sends", as raw SQL from each login: what a modified client could send. The database
 * keeps the exact part files with the upload, checks their hashes itself, lets only the approver who
 * approved it fetch and send them, and never lets the preparer (or anyone else) send it again.
 */

let team: TeamCluster;
/** Raw SQL as each login. */
let as: (login: TeamLogin) => pg.Client;

beforeAll(async () => {
  team = await startTeamCluster();
  as = await team.connectEveryone();
});
afterAll(async () => {
  await team?.stop();
});

const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An upload of these part files (their gzip bytes), submitted by alice: its SHA-256 by the bulkFileSha256 rule. */
async function submit(parts: Buffer[]) {
  const id = randomUUID();
  const hashes = parts.map((p) => sha(p));
  const file = hashes.length === 1 ? hashes[0]! : sha(hashes.join('\n'));
  const { rows } = await as('alice').query(
    `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
     VALUES ($1, 'March donations', 'sandbox', 'sandbox|http://127.0.0.1', 'laptop-a', $2, 2,
       '[{"currencyCode":"EUR","amount":5000,"count":2}]', '{"month":"2026-03"}')
     RETURNING *`,
    [id, file],
  );
  return { id, file, row: rows[0] as { state: string; sender: string } };
}

const store = (login: TeamLogin, id: string, part: number, bytes: Buffer) =>
  as(login).query('SELECT desk.store_upload_file($1, $2, $3) AS sha256', [id, part, bytes]);

async function setRule(approval: string, sender: string) {
  await as('carol').query('UPDATE desk.team_rule SET approval = $1, sender = $2', [approval, sender]);
}

describe('the team chooses who sends', () => {
  it('lets only the desk admin choose, and audits the choice with the rule', async () => {
    await refused(as('bob').query("UPDATE desk.team_rule SET sender = 'approver'"), '42501');
    await refused(as('carol').query("UPDATE desk.team_rule SET sender = 'anyone'"), '23514');
    await setRule('always', 'approver');
    const { rows } = await team.query<{ person: string; details: { before: unknown; after: unknown } }>(
      "SELECT person, details FROM desk.audit WHERE action = 'team-rule' ORDER BY seq DESC LIMIT 1",
    );
    expect(rows[0]).toMatchObject({
      person: 'carol',
      details: {
        before: { approval: 'always', sender: 'preparer' },
        after: { approval: 'always', sender: 'approver' },
      },
    });
  });

  it('records the choice on the upload at submission; an upload no one approves is its preparer’s to send', async () => {
    await setRule('always', 'approver');
    const waiting = await submit([Buffer.from('one')]);
    expect(waiting.row).toMatchObject({ state: 'waiting', sender: 'approver' });
    await setRule('never', 'approver');
    const free = await submit([Buffer.from('two')]);
    expect(free.row).toMatchObject({ state: 'approved', sender: 'preparer' });
    // Its file is stored too, whoever sends it: the computer that sends sends the stored bytes.
    expect((await store('alice', free.id, 0, Buffer.from('two'))).rows[0]?.sha256).toBe(sha('two'));
    // Changing the rule later changes nothing of what was submitted, and no one may rewrite it.
    await setRule('always', 'preparer');
    const again = await team.query<{ sender: string }>('SELECT sender FROM desk.upload WHERE id = $1', [
      waiting.id,
    ]);
    expect(again.rows[0]?.sender).toBe('approver');
    await refused(
      as('alice').query("UPDATE desk.upload SET sender = 'preparer' WHERE id = $1", [waiting.id]),
      '42501',
    );
  });
});

describe('the file the approver sends', () => {
  it('is stored by the preparer only, hashed by the database, and cannot be swapped', async () => {
    await setRule('always', 'approver');
    const gz = Buffer.from('the exact gzip bytes of part 1');
    const up = await submit([gz]);
    await refused(store('dave', up.id, 0, gz), 'DD007', /Only alice/);
    await refused(store('erin', up.id, 0, gz), '42501');
    expect((await store('alice', up.id, 0, gz)).rows[0]?.sha256).toBe(sha(gz));
    // The same bytes again: a retry, answered. Other bytes for the same part: refused.
    expect((await store('alice', up.id, 0, gz)).rows[0]?.sha256).toBe(sha(gz));
    await refused(store('alice', up.id, 0, Buffer.from('other bytes')), 'DD003', /cannot be swapped/);
    // No one writes or reads the table itself; even the owner cannot change or remove a part.
    await refused(
      as('alice').query(
        'INSERT INTO desk.upload_file (upload_id, part, bytes, sha256) VALUES ($1, 1, $2, $3)',
        [up.id, gz, sha(gz)],
      ),
      '42501',
    );
    await refused(as('bob').query('SELECT * FROM desk.upload_file'), '42501');
    await refused(team.query('DELETE FROM desk.upload_file WHERE upload_id = $1', [up.id]), 'DD008');
    await refused(
      team.query("UPDATE desk.upload_file SET bytes = 'x' WHERE upload_id = $1", [up.id]),
      'DD008',
    );
  });

  it('refuses an approval while the stored file is not the one submitted (a swapped file)', async () => {
    await setRule('always', 'approver');
    const gz = Buffer.from('what alice reviewed and submitted');
    const up = await submit([gz]);
    // Nothing stored yet.
    await refused(
      as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]),
      'DD003',
      /not \(or not yet\)/,
    );
    // A modified client stores other bytes than those it hashed: the database's hash does not match.
    await store('alice', up.id, 0, Buffer.from('a different file, with another recipient'));
    await refused(as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]), 'DD003');

    // Two parts: each part's own hash, and their joined hashes the upload's.
    const parts = [Buffer.from('part one'), Buffer.from('part two')];
    const two = await submit(parts);
    await store('alice', two.id, 0, parts[0]!);
    await refused(
      as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [two.id, two.file]),
      'DD003',
    );
    await store('alice', two.id, 1, parts[1]!);
    const approved = await as('bob').query("SELECT * FROM desk.decide($1, 'approve', $2, null)", [
      two.id,
      two.file,
    ]);
    expect(approved.rows[0]).toMatchObject({ state: 'approved', decided_by: 'bob', sender: 'approver' });
  });

  it('is fetched and sent only by the approver who approved it; the preparer can never send it', async () => {
    await setRule('always', 'approver');
    const gz = Buffer.from('the November gifts, gzipped');
    const up = await submit([gz]);
    await store('alice', up.id, 0, gz);
    // An approver reads the file itself before deciding.
    expect(
      (await as('bob').query('SELECT * FROM desk.fetch_upload_file($1, NULL)', [up.id])).rows,
    ).toHaveLength(1);
    await as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]);

    // Fetching: its preparer, approvers and desk admins; not another preparer, nor a login without a desk role.
    expect(
      (await as('alice').query('SELECT * FROM desk.fetch_upload_file($1, NULL)', [up.id])).rows,
    ).toHaveLength(1);
    await refused(as('dave').query('SELECT * FROM desk.fetch_upload_file($1, NULL)', [up.id]), 'DD002');
    await refused(as('erin').query('SELECT * FROM desk.fetch_upload_file($1, NULL)', [up.id]), '42501');
    const fetched = await as('bob').query<{ part: number; bytes: Buffer; sha256: string }>(
      'SELECT * FROM desk.fetch_upload_file($1, NULL)',
      [up.id],
    );
    expect(fetched.rows).toEqual([{ part: 0, bytes: gz, sha256: sha(gz) }]);

    // Sending: the preparer is refused, the approver who approved sends it once.
    await refused(
      as('alice').query('SELECT desk.mark_sent($1, $2)', [up.id, up.file]),
      'DD007',
      /bob approved this upload and sends it/,
    );
    await refused(as('dave').query('SELECT desk.mark_sent($1, $2)', [up.id, up.file]), 'DD007');
    const sent = await as('bob').query("SELECT * FROM desk.mark_sent($1, $2, 'bob-laptop')", [
      up.id,
      up.file,
    ]);
    expect(sent.rows[0]).toMatchObject({ state: 'sent', sent_by: 'bob', sent_from: 'bob-laptop' });
    // Asked again: answered to bob's computer only; anyone else is told who sent it.
    expect(
      (await as('bob').query("SELECT * FROM desk.mark_sent($1, $2, 'bob-laptop')", [up.id, up.file])).rows[0],
    ).toMatchObject({ state: 'sent' });
    await refused(
      as('bob').query("SELECT desk.mark_sent($1, $2, 'bob-desktop')", [up.id, up.file]),
      'DD011',
      /already sent by bob from bob-laptop/,
    );
    await refused(
      as('alice').query("SELECT desk.mark_sent($1, $2, 'laptop-a')", [up.id, up.file]),
      'DD011',
      /already sent by bob from bob-laptop/,
    );
    // Once sent, no file is taken for it any more.
    await refused(store('alice', up.id, 1, gz), 'DD005');
  });

  it('keeps the preparer as the only sender when the rule says so: no approver sends it, nor sends it twice', async () => {
    await setRule('always', 'preparer');
    const gz = Buffer.from('sent by alice');
    const up = await submit([gz]);
    expect(up.row.sender).toBe('preparer');
    await store('alice', up.id, 0, gz);
    await as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]);
    await refused(
      as('bob').query('SELECT desk.mark_sent($1, $2)', [up.id, up.file]),
      'DD007',
      /alice, who prepared this upload, sends it/,
    );
    await as('alice').query("SELECT desk.mark_sent($1, $2, 'laptop-a')", [up.id, up.file]);
    await refused(
      as('alice').query("SELECT desk.mark_sent($1, $2, 'laptop-b')", [up.id, up.file]),
      'DD011',
      /already sent by alice from laptop-a/,
    );
  });
});
