import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamChannels, teamStatusSchema } from '../../../shared/contract/teamChannels';
import { DeskFailure } from '../../../shared/result';
import { TeamConnection } from '../../../electron/services/team/teamConnection';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';

/* Which team database is in force, and what Settings → Team database shows, against a real cluster. */

let team: TeamCluster;
const connections: TeamConnection[] = [];
function connection(env: Record<string, string>, settings: { url: string | null }) {
  const made = new TeamConnection({ env, settingsUrl: () => settings.url, computer: 'laptop-a' });
  connections.push(made);
  return made;
}

beforeAll(async () => {
  team = await startTeamCluster();
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await team?.stop();
});

describe('which database is in force', () => {
  it('is none alone', async () => {
    const alone = connection({}, { url: null });
    expect(alone.current()).toBeNull();
    expect(alone.describe()).toBeNull();
    expect(await alone.status()).toEqual({ mode: 'alone' });
  });

  it('takes Settings, lets DONATION_DESK_DATABASE_URL win, and opens anew when the address changes', async () => {
    const settings = { url: team.urlOf('alice') as string | null };
    const env: Record<string, string> = {};
    const conn = connection(env, settings);
    const first = conn.current();
    expect(first).not.toBeNull();
    expect(conn.current()).toBe(first);
    expect(conn.describe()).toEqual({ server: `127.0.0.1:${team.port}/desk`, source: 'settings' });
    expect((await first!.who()).login).toBe('alice');

    env.DONATION_DESK_DATABASE_URL = team.urlOf('bob');
    const second = conn.current();
    expect(second).not.toBe(first);
    expect((await second!.who()).login).toBe('bob');
    expect(conn.describe()?.source).toBe('environment');

    delete env.DONATION_DESK_DATABASE_URL;
    settings.url = null;
    expect(conn.current()).toBeNull();
  });

  it('refuses an address that is none, rather than working alone', async () => {
    const conn = connection({ DONATION_DESK_DATABASE_URL: 'mysql://x@y/z' }, { url: null });
    expect(() => conn.current()).toThrow(DeskFailure);
    const status = await conn.status();
    expect(status).toMatchObject({ mode: 'team', reachable: false, server: 'not a valid address' });
    expect(status.mode === 'team' && status.problem).toMatch(/must look like postgres:\/\//);
  });
});

describe('team.status', () => {
  it('shows the server, the login, its roles and the rule, never the password', async () => {
    const conn = connection({ DONATION_DESK_DATABASE_URL: team.urlOf('bob') }, { url: null });
    const status = teamStatusSchema.parse(await conn.status());
    expect(status).toEqual({
      mode: 'team',
      server: `127.0.0.1:${team.port}/desk`,
      source: 'environment',
      reachable: true,
      login: 'bob',
      roles: ['desk_preparer', 'desk_approver'],
      problem: null,
      rule: { approval: 'always', thresholds: {}, sender: 'preparer' },
      local: true,
      encryption: { encrypted: false, protocol: null },
    });
    expect(JSON.stringify(status)).not.toContain('bob-password');
  });

  it('says plainly when the server cannot be reached, or the login has no desk role', async () => {
    const down = connection({}, { url: 'postgres://alice:pw-123@127.0.0.1:1/desk' });
    const unreachable = teamStatusSchema.parse(await down.status());
    expect(unreachable).toMatchObject({ mode: 'team', reachable: false, login: null, rule: null });
    expect(unreachable.mode === 'team' && unreachable.problem).toMatch(/cannot be reached/);
    expect(JSON.stringify(unreachable)).not.toContain('pw-123');

    const erin = connection({}, { url: team.urlOf('erin') });
    const noRole = teamStatusSchema.parse(await erin.status());
    expect(noRole).toMatchObject({ mode: 'team', reachable: true, login: 'erin', roles: [], rule: null });
    expect(noRole.mode === 'team' && noRole.problem).toMatch(/no desk role/);
  });
});

describe('team.test', () => {
  const response = teamChannels['team.test'].response;

  it('tries an address without switching to it', async () => {
    const settings = { url: team.urlOf('alice') as string | null };
    const conn = connection({}, settings);
    const inForce = conn.current();
    const tried = response.parse(await conn.test(team.urlOf('carol')));
    expect(tried).toEqual({
      ok: true,
      server: `127.0.0.1:${team.port}/desk`,
      login: 'carol',
      // A desk admin approves only when also granted desk_approver itself.
      roles: ['desk_preparer', 'desk_admin'],
      message: `Connected to 127.0.0.1:${team.port}/desk as carol, preparer and desk admin; not encrypted (the server is on this computer). The team's rule: every upload waits for an approver.`,
    });
    expect(conn.current()).toBe(inForce);
    expect((await conn.current()!.who()).login).toBe('alice');
    expect(response.parse(await conn.test()).login).toBe('alice');
  });

  it('says what is wrong: a wrong password, no server, no address at all', async () => {
    const conn = connection({}, { url: null });
    const wrong = response.parse(await conn.test(team.url('alice', 'guessed-pw')));
    expect(wrong).toMatchObject({ ok: false, login: null });
    expect(wrong.message).toMatch(/refused the login/);
    expect(wrong.message).not.toContain('guessed-pw');
    const none = response.parse(await conn.test());
    expect(none).toMatchObject({ ok: false, server: '' });
    expect(none.message).toMatch(/No team database is set/);
    const empty = response.parse(await conn.test(team.url(undefined, undefined, 'postgres')));
    expect(empty).toMatchObject({ ok: false, login: 'postgres' });
    expect(empty.message).toMatch(/not set up for Donation Desk yet/);
  });
});
