import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../../test/support/teamCluster';
import { PgTeamDatabase } from './teamDatabase';
import type { NewTeamUpload } from './teamTypes';

/* PgTeamDatabase against a real PostgreSQL cluster with the team schema: one login per person. */

let team: TeamCluster;
const dbs = new Map<TeamLogin, PgTeamDatabase>();
const db = (login: TeamLogin) => dbs.get(login)!;

beforeAll(async () => {
  team = await startTeamCluster();
  for (const login of ['alice', 'bob', 'carol', 'dave', 'erin'] as const) {
    dbs.set(login, new PgTeamDatabase({ url: team.urlOf(login), computer: `${login}-laptop` }));
  }
});
afterAll(async () => {
  await Promise.all([...dbs.values()].map((d) => d.close()));
  await team?.stop();
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const ENV = 'sandbox|http://127.0.0.1:9999';

function newUpload(overrides: Partial<NewTeamUpload> = {}): NewTeamUpload {
  const id = randomUUID();
  return {
    id,
    workspaceName: 'March donations',
    environment: 'sandbox',
    environmentKey: ENV,
    computer: 'laptop',
    fileSha256: sha(id),
    rows: 2,
    totals: [{ currencyCode: 'EUR', amount: 12_500, count: 2 }],
    review: { month: '2026-03', largestRecipients: [], alreadyOut: 0, warnings: [] },
    ...overrides,
  };
}

/** Submits with its exact file stored (its bytes here: the id, so its SHA-256 is the one declared). */
async function submitWithFile(login: Parameters<typeof db>[0], up: NewTeamUpload) {
  const submitted = await db(login).submit(up);
  await db(login).storeUploadFile(up.id, 0, Buffer.from(up.id));
  return submitted;
}

async function failure(promise: Promise<unknown>): Promise<DeskFailure> {
  const e = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(DeskFailure);
  return e as DeskFailure;
}

describe('who and the rule', () => {
  it('answers the login and the desk roles it holds, and the server without the password', async () => {
    expect(await db('alice').who()).toEqual({
      login: 'alice',
      roles: ['desk_preparer'],
      server: `127.0.0.1:${team.port}/desk`,
    });
    expect((await db('bob').who()).roles).toEqual(['desk_preparer', 'desk_approver']);
    // A desk admin approves only when also granted desk_approver itself.
    expect((await db('carol').who()).roles).toEqual(['desk_preparer', 'desk_admin']);
    expect((await db('erin').who()).roles).toEqual([]);
    expect(db('alice').server).not.toContain('password');
  });

  it('lets only the admin change the rule; needsApproval follows it', async () => {
    expect(await db('alice').rule()).toEqual({ approval: 'always', thresholds: {}, sender: 'preparer' });
    const refused = await failure(db('bob').setRule({ approval: 'never', thresholds: {} }));
    expect(refused).toMatchObject({
      code: 'TEAM_REFUSED',
      message: "Only a desk admin may change the team's approval rule.",
    });
    const bad = await failure(db('carol').setRule({ approval: 'above', thresholds: { EUR: 1.5 } }));
    expect(bad.code).toBe('INVALID_INPUT');

    await db('carol').setRule({ approval: 'above', thresholds: { EUR: 10_000 } });
    expect(await db('alice').rule()).toEqual({
      approval: 'above',
      thresholds: { EUR: 10_000 },
      sender: 'preparer',
    });
    expect(await db('alice').needsApproval([{ currencyCode: 'EUR', amount: 10_000, count: 1 }])).toBe(false);
    expect(await db('alice').needsApproval([{ currencyCode: 'EUR', amount: 10_001, count: 1 }])).toBe(true);
    expect(await db('alice').needsApproval([{ currencyCode: 'GBP', amount: 1, count: 1 }])).toBe(true);
    const small = await db('alice').submit(
      newUpload({ totals: [{ currencyCode: 'EUR', amount: 900, count: 1 }] }),
    );
    expect(small).toMatchObject({ state: 'approved', decidedBy: null, preparer: 'alice' });
    await db('carol').setRule({ approval: 'always', thresholds: {} });
    expect((await db('alice').submit(newUpload())).state).toBe('waiting');
  });
});

describe('the shared duplicate guard', () => {
  it('claims rows for one upload and answers the rows another live upload holds, claiming nothing', async () => {
    const first = newUpload();
    expect(await db('alice').claimRows(first.id, ENV, ['f1', 'f2', 'f3'])).toEqual([]);
    await db('alice').submit(first);

    const second = newUpload();
    const conflicts = await db('dave').claimRows(second.id, ENV, ['f3', 'f4', 'f1']);
    expect(conflicts.map((c) => c.fingerprint).sort()).toEqual(['f1', 'f3']);
    expect(conflicts[0]).toMatchObject({ uploadId: first.id, sentBy: 'alice', computer: 'alice-laptop' });
    // Nothing was claimed: f4 is still free.
    expect((await db('dave').sentElsewhere(ENV, ['f4'])).size).toBe(0);
    // The same rows in another environment are other rows.
    expect(await db('dave').claimRows(second.id, `${ENV}/other`, ['f1'])).toEqual([]);

    // Confirmed rows go again; the others must be free.
    expect(await db('dave').claimRows(second.id, ENV, ['f1', 'f3', 'f4'], new Set(['f1']))).toHaveLength(1);
    expect(await db('dave').claimRows(second.id, ENV, ['f1', 'f3', 'f4'], 'all')).toEqual([]);
    const seen = await db('bob').sentElsewhere(ENV, ['f1', 'f2', 'f4', 'f9'], second.id);
    expect([...seen.keys()].sort()).toEqual(['f1', 'f2']);
    expect(seen.get('f1')?.uploadId).toBe(first.id);
  });

  it('releases the rows of a rejected or voided upload', async () => {
    const up = newUpload();
    await db('alice').claimRows(up.id, ENV, ['r1', 'r2']);
    await db('alice').submit(up);
    await db('bob').decide(up.id, 'reject', up.fileSha256, 'wrong month');
    const next = newUpload();
    expect(await db('dave').claimRows(next.id, ENV, ['r1', 'r2'])).toEqual([]);
    await db('dave').submit(next);
    await db('dave').voidUpload(next.id, 'row 2 edited');
    expect((await db('alice').sentElsewhere(ENV, ['r1', 'r2'])).size).toBe(0);
  });

  it('checks and claims a large upload in one go, within the statement timeout', async () => {
    // A join the planner misjudged (fresh table, no statistics) once made this quadratic: 100,000
    // rows ran for minutes. With one index probe per row it takes about a second here.
    const rows = Array.from({ length: 40_000 }, (_, i) => `${sha(String(i))}-large`);
    const first = randomUUID();
    expect(await db('alice').claimRows(first, `${ENV}/large`, rows)).toEqual([]);
    const conflicts = await db('dave').claimRows(randomUUID(), `${ENV}/large`, rows);
    expect(conflicts).toHaveLength(40_000);
    expect((await db('dave').sentElsewhere(`${ENV}/large`, rows)).size).toBe(40_000);
    expect(await db('dave').claimRows(randomUUID(), `${ENV}/large`, rows, new Set(rows))).toEqual([]);
  });

  it('lets only one of two computers racing for the same rows claim them', async () => {
    const alice = new PgTeamDatabase({ url: team.urlOf('alice'), computer: 'a' });
    const dave = new PgTeamDatabase({ url: team.urlOf('dave'), computer: 'd' });
    try {
      for (let round = 0; round < 5; round++) {
        const rows = Array.from({ length: 2000 }, (_, i) => `race-${round}-${i}`);
        const [a, d] = await Promise.all([
          alice.claimRows(randomUUID(), ENV, rows),
          dave.claimRows(randomUUID(), ENV, [...rows].reverse()),
        ]);
        const winners = [a, d].filter((conflicts) => conflicts.length === 0);
        expect(winners).toHaveLength(1);
        const loser = a.length ? a : d;
        expect(loser).toHaveLength(2000);
        const { rows: live } = await team.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM desk.sent_row WHERE fingerprint LIKE $1 AND released_at IS NULL',
          [`race-${round}-%`],
        );
        expect(live[0]?.n).toBe(2000);
      }
    } finally {
      await alice.close();
      await dave.close();
    }
  });
});

describe('decisions, voids and sends', () => {
  it('answers the database refusals in plain words', async () => {
    const up = newUpload();
    await submitWithFile('bob', up);
    expect(await failure(db('bob').decide(up.id, 'approve', up.fileSha256, null))).toMatchObject({
      code: 'TEAM_REFUSED',
      message: 'You prepared this upload; another person must approve or reject it.',
    });
    expect(await failure(db('dave').decide(up.id, 'approve', up.fileSha256, null))).toMatchObject({
      code: 'TEAM_REFUSED',
      message: expect.stringMatching(/^Only a person with the approver role may approve or reject uploads/),
    });
    // A desk admin is no approver until granted desk_approver itself.
    expect(await failure(db('carol').decide(up.id, 'approve', up.fileSha256, null))).toMatchObject({
      details: { sqlstate: 'DD002' },
    });
    await team.query('GRANT desk_approver TO carol');
    const stale = await failure(db('carol').decide(up.id, 'approve', sha('edited'), null));
    expect(stale.message).toContain(`This decision is for a different file (SHA-256 ${sha('edited')})`);
    expect(stale.message).toContain('review the upload again');
    expect((await failure(db('carol').decide(up.id, 'reject', up.fileSha256, null))).message).toMatch(
      /a reason is required/,
    );
    const approved = await db('carol').decide(up.id, 'approve', up.fileSha256, null);
    expect(approved).toMatchObject({ state: 'approved', decidedBy: 'carol' });
    expect(approved.decidedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    await team.query('REVOKE desk_approver FROM carol');
  });

  it('sends an approved upload once, and not after a void', async () => {
    const up = newUpload();
    await submitWithFile('alice', up);
    expect((await failure(db('alice').markSent(up.id, up.fileSha256))).message).toMatch(/still waiting/);
    await db('bob').decide(up.id, 'approve', up.fileSha256, 'checked the totals');
    // The rule said the preparer sends: the approver's computer may not.
    expect((await failure(db('bob').markSent(up.id, up.fileSha256))).message).toMatch(
      /alice, who prepared this upload, sends it/,
    );
    const sent = await db('alice').markSent(up.id, up.fileSha256);
    expect(sent).toMatchObject({ state: 'sent', sentBy: 'alice', reason: 'checked the totals' });
    expect((await db('alice').markSent(up.id, up.fileSha256)).state).toBe('sent');
    // Anyone else asking to send it again is told who sent it, and refused.
    const again = await failure(db('bob').markSent(up.id, up.fileSha256));
    expect(again).toMatchObject({ code: 'TEAM_REFUSED', details: { sqlstate: 'DD011' } });
    expect(again.message).toMatch(/already sent by alice/);
    expect((await failure(db('alice').voidUpload(up.id, 'edited'))).message).toMatch(/already sent/);

    const other = newUpload();
    await submitWithFile('alice', other);
    await db('bob').decide(other.id, 'approve', other.fileSha256, null);
    expect(await db('alice').voidUpload(other.id, 'cell C4 edited after approval')).toMatchObject({
      state: 'void',
      reason: 'cell C4 edited after approval',
    });
    expect((await failure(db('alice').markSent(other.id, other.fileSha256))).message).toMatch(/voided/);
    expect(await db('alice').voidUpload(randomUUID(), 'never submitted')).toBeNull();
    expect((await failure(db('dave').voidUpload(other.id, 'x'))).code).toBe('TEAM_REFUSED');
  });

  it('lists uploads by state and sums what was sent in a month', async () => {
    const march = newUpload({
      environment: 'month-test',
      totals: [
        { currencyCode: 'EUR', amount: 1000, count: 1 },
        { currencyCode: 'USD', amount: 300, count: 2 },
      ],
    });
    const march2 = newUpload({
      environment: 'month-test',
      totals: [{ currencyCode: 'EUR', amount: 500, count: 4 }],
    });
    const april = newUpload({ environment: 'month-test', review: { ...march.review, month: '2026-04' } });
    for (const up of [march, march2, april]) {
      await submitWithFile('alice', up);
      await db('bob').decide(up.id, 'approve', up.fileSha256, null);
      await db('alice').markSent(up.id, up.fileSha256);
    }
    expect(await db('bob').monthTotals('month-test', '2026-03')).toEqual([
      { currencyCode: 'EUR', amount: 1500, count: 5 },
      { currencyCode: 'USD', amount: 300, count: 2 },
    ]);
    expect(await db('bob').monthTotals('month-test', '2026-02')).toEqual([]);
    const waiting = await db('bob').uploads({ state: 'waiting' });
    expect(waiting.every((u) => u.state === 'waiting')).toBe(true);
    expect((await db('bob').upload(march.id))?.state).toBe('sent');
    expect(await db('bob').upload('no-such-upload')).toBeNull();
    const all = await db('bob').uploads();
    expect(all.length).toBeGreaterThan(waiting.length);
  });
});

describe('audit trail', () => {
  it('pushes local entries once each, signed with the login, and lists them with filters', async () => {
    const entries = [1, 2, 3].map((n) => ({
      at: `2026-03-0${n}T10:00:00.000Z`,
      person: 'somebody-else',
      computer: 'alice-laptop',
      environment: 'sandbox',
      action: 'edit',
      workspaceId: 'ws-audit',
      details: { row: n, column: 'amount', from: '10', to: '12' },
      originSeq: n,
    }));
    expect(await db('alice').audit.push('alice-laptop-data', entries)).toBe(3);
    expect(await db('alice').audit.push('alice-laptop-data', entries)).toBe(0);
    const page = await db('bob').audit.list({ workspaceId: 'ws-audit' }, undefined, 2);
    expect(page.total).toBe(3);
    expect(page.entries.map((e) => e.details.row)).toEqual([3, 2]);
    // The time is the server's (the computer's own is kept beside it, as reported).
    expect(page.entries[0]).toMatchObject({ person: 'alice' });
    expect(Math.abs(Date.parse(page.entries[0]!.at) - Date.now())).toBeLessThan(60_000);
    const rest = await db('bob').audit.list({ workspaceId: 'ws-audit' }, page.nextBefore!, 2);
    expect(rest.entries.map((e) => e.details.row)).toEqual([1]);
    expect(rest.nextBefore).toBeNull();
    expect(page.people).toContain('alice');
    const today = new Date().toISOString().slice(0, 10);
    const day = await db('bob').audit.all({ workspaceId: 'ws-audit', since: today, until: today });
    expect(day.map((e) => e.details.row)).toEqual([3, 2, 1]);
    expect(await db('bob').audit.all({ workspaceId: 'ws-audit', until: '2026-03-02' })).toEqual([]);
    expect((await failure(db('bob').audit.list({ since: '2026-02-30' }))).code).toBe('INVALID_INPUT');
    expect((await failure(db('erin').audit.push('erin', entries))).code).toBe('TEAM_REFUSED');
  });
});

describe('follow leases', () => {
  it('gives a lease to one holder until it runs out or is released', async () => {
    expect(await db('alice').lease('upload:1', 'alice-laptop', 60_000)).toBe(true);
    expect(await db('alice').lease('upload:1', 'alice-laptop', 60_000)).toBe(true);
    expect(await db('dave').lease('upload:1', 'dave-laptop', 60_000)).toBe(false);
    await db('dave').releaseLease('upload:1', 'dave-laptop');
    expect(await db('dave').lease('upload:1', 'dave-laptop', 60_000)).toBe(false);
    await db('alice').releaseLease('upload:1', 'alice-laptop');
    expect(await db('dave').lease('upload:1', 'dave-laptop', 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    expect(await db('alice').lease('upload:1', 'alice-laptop', 60_000)).toBe(true);
  });
});

describe('when the database cannot serve', () => {
  it('says the server cannot be reached, without the password', async () => {
    const gone = new PgTeamDatabase({
      url: 'postgres://alice:s3cret-pw@127.0.0.1:1/desk',
      connectTimeoutMs: 2000,
    });
    try {
      const e = await failure(gone.rule());
      expect(e.code).toBe('TEAM_UNREACHABLE');
      expect(e.message).toMatch(
        /^The team database at 127\.0\.0\.1:1\/desk cannot be reached: nothing answers/,
      );
      expect(e.message).not.toContain('s3cret-pw');
    } finally {
      await gone.close();
    }
  });

  it('says a wrong password is the login, and an empty database needs init-team', async () => {
    const wrong = new PgTeamDatabase({ url: team.url('alice', 'not-the-password') });
    const empty = new PgTeamDatabase({ url: team.url(undefined, undefined, 'postgres') });
    try {
      const login = await failure(wrong.who());
      expect(login.code).toBe('TEAM_LOGIN_FAILED');
      expect(login.message).not.toContain('not-the-password');
      const notSetUp = await failure(empty.rule());
      expect(notSetUp.code).toBe('TEAM_NOT_SET_UP');
      expect(notSetUp.message).toMatch(/donation-desk db init-team/);
    } finally {
      await wrong.close();
      await empty.close();
    }
  });
});
