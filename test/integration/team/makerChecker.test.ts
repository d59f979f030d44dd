import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditStore } from '../../../electron/services/audit/auditStore';
import { closeDatabase, databaseOf } from '../../../electron/services/db/deskDatabase';
import { TeamAuditOutbox } from '../../../electron/services/team/teamAuditOutbox';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../support/teamCluster';
import { expectRefused as refused } from './refused';

/*
 * Issue 18, "The approver approves what goes out": each way through that was found, tried again as
 * the attacker did — the preparer with her own login and `psql` (raw SQL, nothing of the app), a
 * colleague on the same team, a desk admin, and the server's superuser — against a real cluster.
 */

let team: TeamCluster;
/** Raw SQL as each login. */
let as: (login: TeamLogin) => pg.Client;

beforeAll(async () => {
  team = await startTeamCluster();
  as = await team.connectEveryone();
}, 120_000);
afterAll(async () => {
  await team?.stop();
});

const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
const KEY = 'sandbox|http://127.0.0.1';

/** alice's upload of these rows (claimed first, as her app does); its file is `bytes`. */
async function submit(prints: string[] = [], bytes = Buffer.from(randomUUID())) {
  const id = randomUUID();
  await as('alice').query("SELECT * FROM desk.claim_rows($1, $2, $3, '{}', false, 'alice-laptop')", [
    id,
    KEY,
    prints,
  ]);
  await as('alice').query(
    `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
     VALUES ($1, 'March donations', 'sandbox', $2, 'alice-laptop', $3, 5, '[{"currencyCode":"USD","amount":500,"count":5}]', '{"month":"2026-03"}')`,
    [id, KEY, sha(bytes)],
  );
  return { id, file: sha(bytes), bytes };
}
const store = (id: string, bytes: Buffer) =>
  as('alice').query('SELECT desk.store_upload_file($1, 0, $2)', [id, bytes]);

describe('the audit trail cannot be forged', () => {
  it('refuses an "approve" entry from a computer, whatever time and computer it names', async () => {
    const { id } = await submit();
    await refused(
      as('alice').query(
        `INSERT INTO desk.audit (at, computer, environment, action, upload_id, details, origin, origin_seq)
         VALUES ('2020-01-01T00:00:00Z', 'bob-laptop', 'sandbox', 'approve', $1, '{"state":"approved"}', 'folder-alice', 1)`,
        [id],
      ),
      'DD012',
      /only the database writes it/,
    );
    for (const action of ['send', 'reject', 'void', 'team-rule', 'not-sent']) {
      await refused(
        as('alice').query(
          "INSERT INTO desk.audit (action, origin, origin_seq) VALUES ($1, 'folder-alice', 2)",
          [action],
        ),
        'DD012',
      );
    }
    // An entry she may write gets the server's time and number: her 2020 stays only as reported.
    const { rows } = await as('alice').query<{ at: Date; reported_at: Date; person: string }>(
      `INSERT INTO desk.audit (at, computer, environment, action, details, origin, origin_seq)
       VALUES ('2020-01-01T00:00:00Z', 'bob-laptop', 'sandbox', 'import', '{}', 'folder-alice', 3)
       RETURNING at, reported_at, person`,
    );
    expect(rows[0]!.person).toBe('alice');
    expect(Math.abs(rows[0]!.at.getTime() - Date.now())).toBeLessThan(60_000);
    expect(rows[0]!.reported_at.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    const approvals = await team.query(
      "SELECT 1 FROM desk.audit WHERE upload_id = $1 AND action = 'approve'",
      [id],
    );
    expect(approvals.rows).toEqual([]);
  });

  it("refuses entries under a colleague's origin and next numbers, so his own still reach the trail", async () => {
    const dave = new PgTeamDatabase({ url: team.urlOf('dave'), computer: 'dave-laptop' });
    try {
      const entry = (n: number) => ({
        at: new Date().toISOString(),
        person: 'dave',
        computer: 'dave-laptop',
        environment: 'sandbox',
        action: n % 2 ? 'import' : 'upload',
        details: { n },
        originSeq: n,
      });
      expect(await dave.audit.push('folder-dave', [1, 2].map(entry))).toBe(2);
      // alice reads his origin and last number, and tries the next twenty.
      const last = await as('alice').query<{ n: string }>(
        "SELECT max(origin_seq) AS n FROM desk.audit WHERE origin = 'folder-dave'",
      );
      expect(last.rows[0]?.n).toBe('2');
      for (let n = 3; n <= 22; n++) {
        await refused(
          as('alice').query(
            "INSERT INTO desk.audit (action, origin, origin_seq) VALUES ('import', 'folder-dave', $1)",
            [n],
          ),
          'DD012',
          /written by dave's computer only/,
        );
      }
      // dave's next seven entries all reach the team trail.
      expect(await dave.audit.push('folder-dave', [3, 4, 5, 6, 7, 8, 9].map(entry))).toBe(7);
      const his = await team.query<{ person: string; n: string }>(
        "SELECT person, origin_seq AS n FROM desk.audit WHERE origin = 'folder-dave' ORDER BY origin_seq",
      );
      expect(his.rows.map((r) => `${r.person} ${r.n}`)).toEqual(
        [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `dave ${n}`),
      );
      // Pushed again (a copy that ran twice): nothing doubles. Other content under a number already
      // there is a conflict, reported, never marked copied.
      expect(await dave.audit.push('folder-dave', [8, 9].map(entry))).toBe(0);
      await expect(
        dave.audit.push('folder-dave', [{ ...entry(9), action: 'delete-workspace' }]),
      ).rejects.toMatchObject({ code: 'TEAM_TRAIL_CONFLICT' });
    } finally {
      await dave.close();
    }
  });

  it("reports a conflict while copying this folder's entries, keeps them to copy, and never marks them copied", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dd-outbox-'));
    const alice = new PgTeamDatabase({ url: team.urlOf('alice'), computer: 'alice-laptop' });
    const logged: string[] = [];
    try {
      const db = databaseOf(dir);
      const local = new AuditStore(db);
      const outbox = new TeamAuditOutbox(
        () => db,
        () => alice,
        (m) => logged.push(m),
      );
      const origin = outbox.origin();
      const at = new Date().toISOString();
      local.insert({
        at,
        person: 'alice',
        computer: 'alice-laptop',
        environment: 'sandbox',
        action: 'import',
        details: {},
      });
      expect(await outbox.push()).toBe(1);
      // Number 2 of this folder is already in the team trail with other content (written before this
      // version bound origins to logins, or by another copy of her data folder): the copy of her own
      // number 2 is refused, not skipped.
      await team.query(`SET SESSION AUTHORIZATION alice;
        INSERT INTO desk.audit (action, origin, origin_seq, details) VALUES ('import', '${origin}', 2, '{"forged": true}');
        RESET SESSION AUTHORIZATION`);
      local.insert({
        at,
        person: 'alice',
        computer: 'alice-laptop',
        environment: 'sandbox',
        action: 'upload',
        details: {},
      });
      await expect(outbox.push()).rejects.toMatchObject({ code: 'TEAM_TRAIL_CONFLICT' });
      expect(outbox.pushedSeq(alice.server)).toBe(1);
      outbox.schedule();
      await new Promise((r) => setTimeout(r, 500));
      expect(logged.join('\n')).toMatch(/already holds an entry under this computer's numbers/);
      expect(outbox.pushedSeq(alice.server)).toBe(1);
      closeDatabase(dir);
    } finally {
      await alice.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("detects a superuser's UPDATE and DELETE of entries: desk.verify_audit names the first broken one", async () => {
    const whole = await as('bob').query('SELECT * FROM desk.verify_audit()');
    expect(whole.rows[0]).toMatchObject({ whole: true, first_broken_seq: null, reason: null });
    const entries = Number(whole.rows[0].entries);
    expect(entries).toBeGreaterThan(10);

    const carol = new PgTeamDatabase({ url: team.urlOf('carol') });
    try {
      expect(await carol.audit.verify()).toEqual({ trail: 'team', whole: true, entries });
      // The superuser rewrites one entry (the insert-only rule switched off first).
      const victim = await team.query<{ seq: string; details: unknown }>(
        "SELECT seq, details FROM desk.audit WHERE origin = 'folder-dave' AND origin_seq = 4",
      );
      const seq = Number(victim.rows[0]!.seq);
      await team.query(`ALTER TABLE desk.audit DISABLE TRIGGER audit_no_change;
        UPDATE desk.audit SET details = '{"n": 40}' WHERE seq = ${seq};
        ALTER TABLE desk.audit ENABLE TRIGGER audit_no_change`);
      const edited = await carol.audit.verify();
      expect(edited).toMatchObject({
        whole: false,
        entries: expect.any(Number) as number,
        firstBroken: {
          seq,
          reason: `Entry ${seq} no longer matches its seal: it was changed after it was written.`,
        },
      });
      expect(edited.firstBroken?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
      // Put back as it was, the chain holds again: the seal is of the content.
      await team.query(`ALTER TABLE desk.audit DISABLE TRIGGER audit_no_change;
        UPDATE desk.audit SET details = $$${JSON.stringify(victim.rows[0]!.details)}$$ WHERE seq = ${seq};
        ALTER TABLE desk.audit ENABLE TRIGGER audit_no_change`);
      expect((await carol.audit.verify()).whole).toBe(true);

      // A deletion breaks the next entry's link.
      await team.query(`ALTER TABLE desk.audit DISABLE TRIGGER audit_no_change;
        DELETE FROM desk.audit WHERE seq = ${seq};
        ALTER TABLE desk.audit ENABLE TRIGGER audit_no_change`);
      const removed = await carol.audit.verify();
      expect(removed.whole).toBe(false);
      expect(removed.firstBroken?.seq).toBe(seq + 1);
      expect(removed.firstBroken?.reason).toBe(
        `Entry ${seq + 1} follows entry ${seq}, which is no longer in the trail: entries were removed.`,
      );
      // And removing the last entries shows at the chain's head.
      const lastSeq = Number(
        (await team.query<{ s: string }>('SELECT max(seq) AS s FROM desk.audit')).rows[0]!.s,
      );
      await team.query(`ALTER TABLE desk.audit DISABLE TRIGGER audit_no_change;
        DELETE FROM desk.audit WHERE seq = ${lastSeq};
        ALTER TABLE desk.audit ENABLE TRIGGER audit_no_change`);
      const { rows } = await as('alice').query('SELECT * FROM desk.verify_audit()');
      expect(rows[0]).toMatchObject({ whole: false, first_broken_seq: String(seq + 1) });
    } finally {
      await carol.close();
    }
  });
});

describe('the approver approves the stored file', () => {
  it('refuses to approve an upload whose parts are not stored, or are not the file declared', async () => {
    const up = await submit();
    await refused(
      as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]),
      'DD003',
      /is not \(or not yet\) the one submitted/,
    );
    await store(up.id, Buffer.from('5 × USD 999,999.00'));
    await refused(as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]), 'DD003');
    // Nor can it be marked sent, by anyone.
    await refused(as('alice').query('SELECT desk.mark_sent($1, $2)', [up.id, up.file]), 'DD005');

    const good = await submit();
    await store(good.id, good.bytes);
    const approved = await as('bob').query("SELECT * FROM desk.decide($1, 'approve', $2, null)", [
      good.id,
      good.file,
    ]);
    expect(approved.rows[0]).toMatchObject({ state: 'approved', decided_by: 'bob' });
  });
});

describe('a send that never left', () => {
  it('is recorded as not sent by whoever marked it, once, and its rows are given back for a genuine upload', async () => {
    const prints = [sha('row 1'), sha('row 2'), sha('row 3'), sha('row 4'), sha('row 5')];
    const up = await submit(prints);
    await store(up.id, up.bytes);
    await as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]);
    await as('alice').query("SELECT desk.mark_sent($1, $2, 'alice-laptop')", [up.id, up.file]);
    // The genuine re-upload is refused while the first one counts as sent…
    const genuine = randomUUID();
    const blocked = await as('alice').query(
      "SELECT * FROM desk.claim_rows($1, $2, $3, '{}', false, 'alice-laptop')",
      [genuine, KEY, prints],
    );
    expect(blocked.rows).toHaveLength(5);

    // …until the computer that marked it records that nothing reached the service.
    await refused(as('alice').query("SELECT desk.unmark_sent($1, '', 'alice-laptop')", [up.id]), 'DD006');
    await refused(
      as('dave').query("SELECT desk.unmark_sent($1, 'the file changed', 'alice-laptop')", [up.id]),
      'DD007',
    );
    await refused(
      as('bob').query("SELECT desk.unmark_sent($1, 'the file changed', 'alice-laptop')", [up.id]),
      'DD007',
    );
    await refused(
      as('alice').query("SELECT desk.unmark_sent($1, 'the file changed', 'alice-desktop')", [up.id]),
      'DD007',
      /Only alice, from alice-laptop/,
    );
    const back = await as('alice').query(
      "SELECT * FROM desk.unmark_sent($1, 'The file to send changed on disk after approval', 'alice-laptop')",
      [up.id],
    );
    expect(back.rows[0]).toMatchObject({
      state: 'void',
      reason: 'Not sent: The file to send changed on disk after approval',
    });
    // Asked again: the same answer, nothing given back twice.
    await as('alice').query("SELECT desk.unmark_sent($1, 'again', 'alice-laptop')", [up.id]);
    const recorded = await team.query<{ action: string; details: { releasedRows?: number } }>(
      "SELECT action, details FROM desk.audit WHERE upload_id = $1 AND action = 'not-sent'",
      [up.id],
    );
    expect(recorded.rows.map((r) => r.details.releasedRows)).toEqual([5]);
    await refused(
      as('alice').query("SELECT desk.mark_sent($1, $2, 'alice-laptop')", [up.id, up.file]),
      'DD005',
    );

    const accepted = await as('alice').query(
      "SELECT * FROM desk.claim_rows($1, $2, $3, '{}', false, 'alice-laptop')",
      [genuine, KEY, prints],
    );
    expect(accepted.rows).toEqual([]);
  });

  it('stays sent once a bulk of it reached the service', async () => {
    const up = await submit([sha(randomUUID())]);
    await store(up.id, up.bytes);
    await as('bob').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]);
    await as('alice').query("SELECT desk.mark_sent($1, $2, 'alice-laptop')", [up.id, up.file]);
    await as('alice').query(
      `SELECT desk.publish_bulk($1, 'bulk-x', $2, 0, now(), '[]', 'UPLOADED', null, 'alice-laptop')`,
      [KEY, up.id],
    );
    await refused(
      as('alice').query("SELECT desk.unmark_sent($1, 'nothing went', 'alice-laptop')", [up.id]),
      'DD005',
      /reached the service/,
    );
  });
});

describe('duties kept apart', () => {
  it("refuses a preparer's UPDATE or DELETE of someone else's lease; an admin may clear it", async () => {
    await as('dave').query(
      "INSERT INTO desk.follow_lease (key, holder, computer, until) VALUES ('follow:b1', 'dave-1', 'dave-laptop', now() + interval '1 hour')",
    );
    const updated = await as('alice').query(
      "UPDATE desk.follow_lease SET holder = 'alice-1', login = 'alice', until = now() + interval '9 hours' WHERE key = 'follow:b1'",
    );
    expect(updated.rowCount).toBe(0);
    const deleted = await as('alice').query("DELETE FROM desk.follow_lease WHERE key = 'follow:b1'");
    expect(deleted.rowCount).toBe(0);
    // Naming his holder in the app's own statement does not pass either.
    await refused(
      as('alice').query(
        `INSERT INTO desk.follow_lease AS l (key, holder, computer, until) VALUES ('follow:b1', 'dave-1', 'x', now())
         ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, login = session_user, until = EXCLUDED.until
         WHERE l.holder = EXCLUDED.holder OR l.until < now()`,
      ),
      '42501',
    );
    // Nor may she insert one in his name.
    await refused(
      as('alice').query(
        "INSERT INTO desk.follow_lease (key, holder, login, until) VALUES ('follow:b2', 'h', 'dave', now())",
      ),
      '42501',
    );
    const lease = await team.query('SELECT holder, login FROM desk.follow_lease WHERE key = $1', [
      'follow:b1',
    ]);
    expect(lease.rows).toEqual([{ holder: 'dave-1', login: 'dave' }]);
    // dave renews his own; a desk admin may clear it.
    const renewed = await as('dave').query(
      "UPDATE desk.follow_lease SET until = now() + interval '2 hours' WHERE key = 'follow:b1'",
    );
    expect(renewed.rowCount).toBe(1);
    expect((await as('carol').query("DELETE FROM desk.follow_lease WHERE key = 'follow:b1'")).rowCount).toBe(
      1,
    );
  });

  it('refuses approval to a desk admin without desk_approver; granted it explicitly, the admin approves', async () => {
    const up = await submit();
    await store(up.id, up.bytes);
    await refused(
      as('carol').query("SELECT desk.decide($1, 'approve', $2, null)", [up.id, up.file]),
      'DD002',
      /a desk admin approves only when also granted desk_approver/,
    );
    // The admin still grants the roles.
    await as('carol').query('GRANT desk_approver TO erin');
    await as('carol').query('REVOKE desk_approver FROM erin');
    await team.query('GRANT desk_approver TO carol');
    try {
      const approved = await as('carol').query("SELECT * FROM desk.decide($1, 'approve', $2, null)", [
        up.id,
        up.file,
      ]);
      expect(approved.rows[0]).toMatchObject({ state: 'approved', decided_by: 'carol' });
    } finally {
      await team.query('REVOKE desk_approver FROM carol');
    }
  });
});
