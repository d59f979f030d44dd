import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../support/teamCluster';
import { expectRefused as refused } from './refused';

/*
 * The team database's rules as raw SQL from each login: what a modified client could send. Nothing
 * here goes through the app's code, so each refusal is the database's own.
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

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function submit(login: TeamLogin, totals: unknown = [{ currencyCode: 'EUR', amount: 5000, count: 2 }]) {
  const id = randomUUID();
  const file = sha(id);
  const { rows } = await as(login).query(
    `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
     VALUES ($1, 'March donations', 'sandbox', 'sandbox|http://127.0.0.1', 'laptop', $2, 2, $3, '{"month":"2026-03"}')
     RETURNING *`,
    [id, file, JSON.stringify(totals)],
  );
  // The exact file goes with every submission (its bytes here: the id, so its SHA-256 is `file`).
  await as(login).query('SELECT desk.store_upload_file($1, 0, $2)', [id, Buffer.from(id)]);
  return { id, file, row: rows[0] as { preparer: string; state: string } };
}

async function setRule(approval: string, thresholds: Record<string, number> = {}) {
  await as('carol').query('UPDATE desk.team_rule SET approval = $1, thresholds = $2', [
    approval,
    JSON.stringify(thresholds),
  ]);
}

describe('roles and grants', () => {
  it('makes three NOLOGIN group roles; an admin holds the others and may grant them', async () => {
    const { rows } = await team.query<{ rolname: string; rolcanlogin: boolean }>(
      "SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname LIKE 'desk\\_%' ORDER BY rolname",
    );
    expect(rows).toEqual([
      { rolname: 'desk_admin', rolcanlogin: false },
      { rolname: 'desk_approver', rolcanlogin: false },
      { rolname: 'desk_preparer', rolcanlogin: false },
    ]);
    await as('carol').query('GRANT desk_preparer TO erin');
    await as('carol').query('REVOKE desk_preparer FROM erin');
    await refused(as('alice').query('GRANT desk_approver TO alice'), '42501');
  });

  it('gives a login without a desk role nothing, and keeps out logins not granted CONNECT', async () => {
    await refused(as('erin').query('SELECT * FROM desk.upload'), '42501');
    await refused(as('erin').query('SELECT * FROM desk.audit'), '42501');
    await refused(as('erin').query("INSERT INTO desk.audit (action) VALUES ('import')"), '42501');
    await team.createLogin('frank', 'frank-password');
    const { default: pgModule } = await import('pg');
    const frank = new pgModule.Client({ connectionString: team.url('frank', 'frank-password') });
    await refused(frank.connect(), '42501', /permission denied for database/);
  });
});

describe('submission applies the team rule, whatever the client says', () => {
  it('forces the preparer to the login and the state from the rule; the client may not name them', async () => {
    await setRule('always');
    const { row } = await submit('alice');
    expect(row).toMatchObject({ preparer: 'alice', state: 'waiting' });
    await refused(
      as('alice').query(
        `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review, state, preparer)
         VALUES ('x1', 'w', 'sandbox', 'k', 'c', $1, 1, '[]', '{}', 'approved', 'bob')`,
        [sha('x1')],
      ),
      '42501',
      /permission denied/,
    );
    // The owner's own INSERT naming another preparer and state is overruled by the trigger.
    const forced = await team.query<{ preparer: string; state: string }>(
      `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review, state, preparer)
       VALUES ('x2', 'w', 'sandbox', 'k', 'c', $1, 1, '[]', '{}', 'sent', 'bob') RETURNING preparer, state`,
      [sha('x2')],
    );
    expect(forced.rows[0]).toEqual({ preparer: 'postgres', state: 'waiting' });
  });

  it("follows 'never' and 'above' (a currency without a threshold always asks)", async () => {
    await setRule('never');
    expect((await submit('alice')).row.state).toBe('approved');
    await setRule('above', { EUR: 100_000 });
    expect((await submit('alice', [{ currencyCode: 'EUR', amount: 100_000, count: 3 }])).row.state).toBe(
      'approved',
    );
    expect((await submit('alice', [{ currencyCode: 'EUR', amount: 100_001, count: 3 }])).row.state).toBe(
      'waiting',
    );
    expect((await submit('alice', [{ currencyCode: 'USD', amount: 1, count: 1 }])).row.state).toBe('waiting');
    const asked = await as('alice').query<{ n: boolean }>('SELECT desk.needs_approval($1) AS n', [
      JSON.stringify([{ currencyCode: 'EUR', amount: 99, count: 1 }]),
    ]);
    expect(asked.rows[0]?.n).toBe(false);
    await setRule('always');
  });

  it('lets only the desk admin change the rule, checks its shape, and records the change', async () => {
    await refused(as('bob').query("UPDATE desk.team_rule SET approval = 'never'"), '42501');
    await refused(as('alice').query('DELETE FROM desk.team_rule'), '42501');
    await refused(
      as('carol').query(`UPDATE desk.team_rule SET thresholds = '{"EUR": -5}'`),
      '23514',
      /valid_thresholds|check constraint/,
    );
    await setRule('above', { EUR: 500 });
    const { rows } = await team.query<{ person: string; details: { after: { approval: string } } }>(
      "SELECT person, details FROM desk.audit WHERE action = 'team-rule' ORDER BY seq DESC LIMIT 1",
    );
    expect(rows[0]).toMatchObject({ person: 'carol', details: { after: { approval: 'above' } } });
    await setRule('always');
  });
});

describe('decide: only another person with the approver role, for exactly the file submitted', () => {
  it('refuses a login without desk_approver: the function, and raw UPDATE and INSERT on the table', async () => {
    const { id, file } = await submit('alice');
    await refused(as('dave').query("SELECT desk.decide($1, 'approve', $2, null)", [id, file]), '42501');
    await refused(as('dave').query("UPDATE desk.upload SET state = 'approved' WHERE id = $1", [id]), '42501');
    await refused(
      as('dave').query(
        "INSERT INTO desk.approval_event (upload_id, action, state_after) VALUES ($1, 'approve', 'approved')",
        [id],
      ),
      '42501',
    );
    // Even if EXECUTE were granted by mistake, the function checks the role itself.
    await team.query('GRANT EXECUTE ON FUNCTION desk.decide(text, text, text, text, text) TO desk_preparer');
    try {
      await refused(
        as('dave').query("SELECT desk.decide($1, 'approve', $2, null)", [id, file]),
        'DD002',
        /Only a person with the approver role/,
      );
    } finally {
      await team.query(
        'REVOKE EXECUTE ON FUNCTION desk.decide(text, text, text, text, text) FROM desk_preparer',
      );
    }
    const { rows } = await team.query<{ state: string }>('SELECT state FROM desk.upload WHERE id = $1', [id]);
    expect(rows[0]?.state).toBe('waiting');
  });

  it('refuses the preparer, a different SHA-256, a rejection without reason; approves once', async () => {
    const mine = await submit('bob');
    await refused(
      as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [mine.id, mine.file]),
      'DD001',
      /You prepared this upload; another person must/,
    );
    const { id, file } = await submit('alice');
    await refused(
      as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [id, sha('another file')]),
      'DD003',
      new RegExp(`different file \\(SHA-256 ${sha('another file')}\\)`),
    );
    await refused(as('bob').query("SELECT desk.decide($1, 'reject', $2, '  ')", [id, file]), 'DD006');
    const approved = await as('bob').query("SELECT * FROM desk.decide($1, 'approve', $2, 'looks right')", [
      id,
      file,
    ]);
    expect(approved.rows[0]).toMatchObject({ state: 'approved', decided_by: 'bob', reason: 'looks right' });
    await refused(
      as('bob').query("SELECT desk.decide($1, 'reject', $2, 'changed my mind')", [id, file]),
      'DD005',
      /no longer waiting/,
    );
    await refused(as('bob').query("SELECT desk.decide('no-such', 'approve', $1, null)", [file]), 'DD004');
  });

  it('keeps what was submitted, and lets the state only move forward, even for the owner', async () => {
    const { id } = await submit('alice');
    await refused(
      team.query('UPDATE desk.upload SET file_sha256 = $1 WHERE id = $2', [sha('swap'), id]),
      'DD009',
    );
    await refused(team.query("UPDATE desk.upload SET state = 'sent' WHERE id = $1", [id]), 'DD005');
    await refused(team.query('DELETE FROM desk.upload WHERE id = $1', [id]), 'DD008');
    await refused(team.query('TRUNCATE desk.upload CASCADE'), 'DD008');
  });
});

describe('void and mark_sent', () => {
  it('lets the preparer or an admin void a waiting or approved upload, and releases its rows', async () => {
    const { id, file } = await submit('alice');
    await refused(as('dave').query("SELECT desk.void_upload($1, 'edited')", [id]), 'DD007', /Only alice/);
    await refused(as('alice').query("SELECT desk.void_upload($1, '')", [id]), 'DD006');
    await as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [id, file]);
    const voided = await as('alice').query("SELECT * FROM desk.void_upload($1, 'row 4 edited', 'laptop-a')", [
      id,
    ]);
    expect(voided.rows[0]).toMatchObject({ state: 'void', reason: 'row 4 edited' });
    await refused(
      as('alice').query('SELECT desk.mark_sent($1, $2)', [id, file]),
      'DD005',
      /was voided: it cannot be sent/,
    );
    const other = await submit('dave');
    const byAdmin = await as('carol').query("SELECT * FROM desk.void_upload($1, 'wrong month')", [other.id]);
    expect(byAdmin.rows[0]).toMatchObject({ state: 'void' });
  });

  it('sends only an approved upload of the same file, by its preparer or an approver', async () => {
    const { id, file } = await submit('alice');
    await refused(as('alice').query('SELECT desk.mark_sent($1, $2)', [id, file]), 'DD005', /still waiting/);
    await as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [id, file]);
    await refused(as('dave').query('SELECT desk.mark_sent($1, $2)', [id, file]), 'DD007');
    await refused(as('alice').query('SELECT desk.mark_sent($1, $2)', [id, sha('edited')]), 'DD003');
    const sent = await as('alice').query("SELECT * FROM desk.mark_sent($1, $2, 'laptop-a')", [id, file]);
    expect(sent.rows[0]).toMatchObject({ state: 'sent', sent_by: 'alice' });
    await refused(as('alice').query("SELECT desk.void_upload($1, 'too late')", [id]), 'DD005');

    const events = await team.query<{ action: string; actor: string; state_after: string }>(
      'SELECT action, actor, state_after FROM desk.approval_event WHERE upload_id = $1 ORDER BY seq',
      [id],
    );
    expect(events.rows).toEqual([
      { action: 'submit', actor: 'alice', state_after: 'waiting' },
      { action: 'approve', actor: 'bob', state_after: 'approved' },
      { action: 'send', actor: 'alice', state_after: 'sent' },
    ]);
    const audit = await team.query<{ action: string; person: string; computer: string; origin: string }>(
      'SELECT action, person, computer, origin FROM desk.audit WHERE upload_id = $1 ORDER BY seq',
      [id],
    );
    expect(audit.rows).toEqual([
      { action: 'submit', person: 'alice', computer: 'laptop', origin: 'team-database' },
      { action: 'approve', person: 'bob', computer: '', origin: 'team-database' },
      { action: 'send', person: 'alice', computer: 'laptop-a', origin: 'team-database' },
    ]);
  });
});

describe('giving back rows the service refused', () => {
  it('is for a sent upload only, by its preparer, for its own claims, and is recorded', async () => {
    const id = randomUUID();
    const file = sha(id);
    const key = 'sandbox|http://127.0.0.1';
    const prints = [sha(`${id}-1`), sha(`${id}-2`), sha(`${id}-3`)];
    await as('alice').query("SELECT * FROM desk.claim_rows($1, $2, $3, '{}', false, 'laptop')", [
      id,
      key,
      prints,
    ]);
    await as('alice').query(
      `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
       VALUES ($1, 'March donations', 'sandbox', $2, 'laptop', $3, 3, '[{"currencyCode":"EUR","amount":300,"count":3}]', '{"month":"2026-03"}')`,
      [id, key, file],
    );
    await as('alice').query('SELECT desk.store_upload_file($1, 0, $2)', [id, Buffer.from(id)]);
    await refused(
      as('alice').query('SELECT desk.release_rows($1, $2)', [id, prints]),
      'DD005',
      /sent upload/,
    );
    await as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [id, file]);
    await as('alice').query('SELECT desk.mark_sent($1, $2)', [id, file]);
    await refused(as('dave').query('SELECT desk.release_rows($1, $2)', [id, prints]), 'DD007', /Only alice/);
    // No UPDATE on the guard for anyone: only the function gives claims back.
    await refused(
      as('alice').query('UPDATE desk.sent_row SET released_at = now() WHERE upload_id = $1', [id]),
      '42501',
    );

    const given = await as('alice').query<{ n: number }>("SELECT desk.release_rows($1, $2, 'laptop') AS n", [
      id,
      prints.slice(1),
    ]);
    expect(given.rows[0]?.n).toBe(2);
    const again = await as('alice').query<{ n: number }>('SELECT desk.release_rows($1, $2) AS n', [
      id,
      prints,
    ]);
    expect(again.rows[0]?.n).toBe(1);
    const live = await team.query<{ fingerprint: string }>(
      'SELECT fingerprint FROM desk.sent_row WHERE upload_id = $1 AND released_at IS NULL',
      [id],
    );
    expect(live.rows).toEqual([]);
    const audit = await team.query<{ action: string; person: string; details: { releasedRows: number } }>(
      "SELECT action, person, details FROM desk.audit WHERE upload_id = $1 AND action = 'release-rows' ORDER BY seq",
      [id],
    );
    expect(audit.rows.map((r) => [r.person, r.details.releasedRows])).toEqual([
      ['alice', 2],
      ['alice', 1],
    ]);
  });
});

describe('the audit trail and the approval history are insert-only', () => {
  it('takes entries from the desk roles and signs them with the login, not what the client says', async () => {
    await as('alice').query(
      `INSERT INTO desk.audit (computer, environment, action, details, origin, origin_seq)
       VALUES ('laptop-a', 'sandbox', 'import', '{"file":"march.xlsx"}', 'laptop-a', 1)`,
    );
    await refused(
      as('alice').query("INSERT INTO desk.audit (action, person) VALUES ('import', 'bob')"),
      '42501',
    );
    await refused(
      as('alice').query("INSERT INTO desk.audit (action, origin) VALUES ('approve', 'team-database')"),
      'DD009',
    );
    const forced = await team.query<{ person: string }>(
      "INSERT INTO desk.audit (action, person) VALUES ('import', 'bob') RETURNING person",
    );
    expect(forced.rows[0]?.person).toBe('postgres');
    const { rows } = await as('bob').query<{ person: string }>(
      "SELECT person FROM desk.audit WHERE origin = 'laptop-a' AND origin_seq = 1",
    );
    expect(rows).toEqual([{ person: 'alice' }]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE to everyone, the owner too', async () => {
    for (const login of ['alice', 'bob', 'carol'] as const) {
      await refused(as(login).query("UPDATE desk.audit SET action = 'x'"), '42501');
      await refused(as(login).query('DELETE FROM desk.audit'), '42501');
      await refused(as(login).query('TRUNCATE desk.audit'), '42501');
    }
    for (const table of ['audit', 'approval_event']) {
      await refused(team.query(`UPDATE desk.${table} SET computer = 'x'`), 'DD008', /insert-only/);
      await refused(team.query(`DELETE FROM desk.${table}`), 'DD008', /insert-only/);
      await refused(team.query(`TRUNCATE desk.${table}`), 'DD008', /insert-only/);
    }
  });

  it("does not let anyone call the database's own helpers, nor sign as someone else with SET ROLE", async () => {
    await refused(
      as('bob').query(
        "SELECT desk.record(u, 'approve', 'waiting', null, '', null) FROM desk.upload u LIMIT 1",
      ),
      '42501',
      /permission denied for function record/,
    );
    await as('bob').query('SET ROLE desk_preparer');
    try {
      const { rows } = await as('bob').query<{ person: string }>(
        "INSERT INTO desk.audit (action, origin, origin_seq) VALUES ('import', 'bob-folder', 1) RETURNING person",
      );
      expect(rows[0]?.person).toBe('bob');
    } finally {
      await as('bob').query('RESET ROLE');
    }
  });

  it('does not let anyone write the shared guard but through claim_rows', async () => {
    await refused(
      as('alice').query(
        "INSERT INTO desk.sent_row (environment_key, fingerprint, upload_id) VALUES ('k', 'f', 'u')",
      ),
      '42501',
    );
    await refused(as('bob').query('UPDATE desk.sent_row SET released_at = now()'), '42501');
  });
});
