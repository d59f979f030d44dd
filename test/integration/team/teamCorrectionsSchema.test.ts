import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActionWord, describeAuditEntry } from '../../../shared/audit/describeAuditEntry';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../support/teamCluster';
import { expectRefused as refused } from './refused';

/*
 * Corrections of declined donations on the team database, as raw SQL from each login: one person
 * at a time replaces a declined donation, whatever a modified client sends.
 */

let team: TeamCluster;
/** Raw SQL as each login. */
let as: (login: TeamLogin) => pg.Client;
const KEY = 'sandbox|http://127.0.0.1';

beforeAll(async () => {
  team = await startTeamCluster();
  as = await team.connectEveryone();
}, 120_000);
afterAll(async () => {
  await team?.stop();
});

interface Claim {
  granted: boolean;
  claimed_by: string;
  computer: string;
  state: string;
  replacement_id: string | null;
  how: string;
  upload_id: string | null;
}

async function claim(
  login: TeamLogin,
  donationId: string,
  how: 'single' | 'upload' = 'single',
  uploadId: string | null = null,
): Promise<Claim> {
  const { rows } = await as(login).query<Claim>('SELECT * FROM desk.claim_correction($1, $2, $3, $4, $5)', [
    KEY,
    donationId,
    how,
    uploadId,
    `${login}-laptop`,
  ]);
  return rows[0]!;
}

const finish = (login: TeamLogin, donationId: string, replacementId: string) =>
  as(login).query('SELECT * FROM desk.finish_correction($1, $2, $3, $4)', [
    KEY,
    donationId,
    replacementId,
    `${login}-laptop`,
  ]);
const abandon = (login: TeamLogin, donationId: string) =>
  as(login).query('SELECT * FROM desk.abandon_correction($1, $2, $3)', [KEY, donationId, `${login}-laptop`]);
const stateOf = async (donationId: string) =>
  (
    await team.query<{ state: string; claimed_by: string }>(
      'SELECT state, claimed_by FROM desk.correction WHERE environment_key = $1 AND donation_id = $2',
      [KEY, donationId],
    )
  ).rows[0];

describe('claiming a correction', () => {
  it('gives the first claim; another login is answered the holder and claims nothing', async () => {
    const id = `don-${randomUUID()}`;
    expect(await claim('alice', id)).toMatchObject({
      granted: true,
      claimed_by: 'alice',
      computer: 'alice-laptop',
      state: 'in-progress',
    });
    expect(await claim('dave', id)).toMatchObject({
      granted: false,
      claimed_by: 'alice',
      computer: 'alice-laptop',
      state: 'in-progress',
    });
    // A retry of one's own claim is fine.
    expect(await claim('alice', id)).toMatchObject({ granted: true, claimed_by: 'alice' });
    // Dave may neither finish nor give up alice's correction.
    await refused(finish('dave', id, 'don-x'), 'DD007', /Only alice/);
    await refused(abandon('dave', id), 'DD007', /Only alice/);
    await finish('alice', id, 'don-replacement');
    expect(await claim('dave', id)).toMatchObject({
      granted: false,
      claimed_by: 'alice',
      state: 'done',
      replacement_id: 'don-replacement',
    });
    // Done is done, even for the one who did it.
    expect(await claim('alice', id)).toMatchObject({ granted: false, state: 'done' });
    await refused(abandon('alice', id), 'DD005', /already replaced/);
  });

  it('lets an abandoned correction be claimed again, by anyone; an admin may give one up', async () => {
    const id = `don-${randomUUID()}`;
    await claim('alice', id);
    await abandon('alice', id);
    expect(await claim('dave', id)).toMatchObject({
      granted: true,
      claimed_by: 'dave',
      state: 'in-progress',
    });
    await abandon('carol', id);
    expect(await stateOf(id)).toEqual({ state: 'abandoned', claimed_by: 'dave' });
    expect(await claim('alice', id)).toMatchObject({ granted: true, claimed_by: 'alice' });
  });

  it('keeps the table out of reach: no writes, no claims without the preparer role', async () => {
    const id = `don-${randomUUID()}`;
    await refused(
      as('alice').query(
        "INSERT INTO desk.correction (environment_key, donation_id, how) VALUES ($1, $2, 'single')",
        [KEY, id],
      ),
      '42501',
    );
    await claim('alice', id);
    await refused(
      as('alice').query("UPDATE desk.correction SET claimed_by = 'dave' WHERE donation_id = $1", [id]),
      '42501',
    );
    await refused(as('alice').query('DELETE FROM desk.correction WHERE donation_id = $1', [id]), '42501');
    await refused(
      as('erin').query('SELECT * FROM desk.claim_correction($1, $2, $3)', [KEY, id, 'single']),
      '42501',
    );
    await refused(claim('alice', `don-${randomUUID()}`, 'upload', null), 'DD009');
    // Everyone with the desk sees who holds what.
    const { rows } = await as('dave').query('SELECT claimed_by FROM desk.correction WHERE donation_id = $1', [
      id,
    ]);
    expect(rows).toEqual([{ claimed_by: 'alice' }]);
  });

  it('writes each step to the audit trail as the database’s own entries', async () => {
    const id = `don-${randomUUID()}`;
    await claim('alice', id);
    await claim('dave', id);
    await finish('alice', id, 'don-r');
    const { rows } = await team.query<{ action: string; person: string; origin: string }>(
      'SELECT action, person, origin FROM desk.audit WHERE donation_id = $1 ORDER BY seq',
      [id],
    );
    expect(rows).toEqual([
      { action: 'correction-claim', person: 'alice', origin: 'team-database' },
      { action: 'correction-done', person: 'alice', origin: 'team-database' },
    ]);
    // As the Audit view and exports word them.
    const { rows: entries } = await team.query<{ action: string; details: Record<string, unknown> }>(
      'SELECT action, details FROM desk.audit WHERE donation_id = $1 ORDER BY seq',
      [id],
    );
    expect(entries.map((e) => `${auditActionWord(e.action)}: ${describeAuditEntry(e)}`)).toEqual([
      'Started correcting a declined donation: Correction by alice, on its own · now in progress',
      'Finished correcting a declined donation: Correction by alice, on its own · now done · replaced by don-r',
    ]);
  });
});

describe('corrections sent in an upload', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');

  async function submit(login: TeamLogin, uploadId: string): Promise<string> {
    const file = sha(uploadId);
    await as(login).query(
      `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
       VALUES ($1, 'Corrections', 'sandbox', $2, 'laptop', $3, 1, '[{"currencyCode":"EUR","amount":500,"count":1}]', '{"month":"2026-11"}')`,
      [uploadId, KEY, file],
    );
    // The exact file goes with every submission (its bytes here: the id, so its SHA-256 is `file`).
    await as(login).query('SELECT desk.store_upload_file($1, 0, $2)', [uploadId, Buffer.from(uploadId)]);
    return file;
  }

  it('are given back when the upload is rejected or voided, so a colleague may correct them', async () => {
    const rejectedUpload = randomUUID();
    const voidedUpload = randomUUID();
    const neverSubmitted = randomUUID();
    const [a, b, c] = [1, 2, 3].map(() => `don-${randomUUID()}`) as [string, string, string];
    expect(await claim('alice', a, 'upload', rejectedUpload)).toMatchObject({ granted: true, how: 'upload' });
    expect(await claim('alice', b, 'upload', voidedUpload)).toMatchObject({ granted: true });
    expect(await claim('alice', c, 'upload', neverSubmitted)).toMatchObject({ granted: true });
    expect(await claim('dave', a)).toMatchObject({ granted: false, claimed_by: 'alice' });

    const file = await submit('alice', rejectedUpload);
    await as('bob').query("SELECT desk.decide($1, 'reject', $2, 'wrong cause', 'bob-laptop')", [
      rejectedUpload,
      file,
    ]);
    expect(await stateOf(a)).toEqual({ state: 'abandoned', claimed_by: 'alice' });
    expect(await claim('dave', a)).toMatchObject({ granted: true, claimed_by: 'dave' });

    await submit('alice', voidedUpload);
    // Dave cannot void alice's upload, so her correction stays hers.
    await refused(as('dave').query("SELECT desk.void_upload($1, 'edited', 'x')", [voidedUpload]), 'DD007');
    expect(await stateOf(b)).toEqual({ state: 'in-progress', claimed_by: 'alice' });
    await as('alice').query("SELECT desk.void_upload($1, 'edited after approval', 'alice-laptop')", [
      voidedUpload,
    ]);
    expect(await stateOf(b)).toEqual({ state: 'abandoned', claimed_by: 'alice' });

    // An upload that never reached the team: only the one who claimed for it gives its claims back.
    await as('dave').query("SELECT desk.void_upload($1, 'not sent', 'x')", [neverSubmitted]);
    expect(await stateOf(c)).toEqual({ state: 'in-progress', claimed_by: 'alice' });
    await as('alice').query("SELECT desk.void_upload($1, 'not sent', 'x')", [neverSubmitted]);
    expect(await stateOf(c)).toEqual({ state: 'abandoned', claimed_by: 'alice' });
  });
});
