import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import '../../../electron/cli/commands/approvals';
import '../../../electron/cli/commands/db';
import { TeamConnection } from '../../../electron/services/team/teamConnection';
import { teamChannels, teamStatusSchema, type TeamStatus } from '../../../shared/contract/teamChannels';
import { startPgCluster, type PgCluster, type PgClusterTls } from '../../support/pgCluster';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';
import { runCliInProcess } from '../cliInProcess';

/*
 * The team database over TLS, against real servers: one that takes encrypted logins only (hostssl
 * lines in pg_hba.conf, a certificate for localhost and 127.0.0.1 from a CA of its own), and one
 * that offers no TLS at all.
 */

let team: TeamCluster;
let tls: PgClusterTls;
let plainServer: PgCluster;
let emu: RunningEmulator;
let work: string;
const connections: TeamConnection[] = [];

function connection(url: string, env: Record<string, string> = {}): TeamConnection {
  const made = new TeamConnection({ env: { DONATION_DESK_DATABASE_URL: url, ...env }, computer: 'laptop-a' });
  connections.push(made);
  return made;
}

/** alice's address on the TLS server, without any TLS parameter. */
const plainAlice = (host = '127.0.0.1') =>
  team.plainUrl('alice', 'alice-password').replace('@127.0.0.1:', `@${host}:`);

async function statusOf(url: string, env: Record<string, string> = {}): Promise<TeamStatus> {
  return teamStatusSchema.parse(await connection(url, env).status());
}

function problemOf(status: TeamStatus): string {
  if (status.mode !== 'team') throw new Error('not in team mode');
  expect(status.reachable).toBe(false);
  return status.problem ?? '';
}

beforeAll(async () => {
  [team, plainServer, emu] = await Promise.all([
    startTeamCluster({ tls: { hostsslOnly: true } }),
    startPgCluster(),
    startEmulator({ port: 0, uploadPort: 0, quiet: true }),
  ]);
  tls = team.tls!;
  work = await mkdtemp(join(tmpdir(), 'desk-tls-'));
}, 60_000);

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await Promise.all([team?.stop(), plainServer?.stop(), emu?.close()]);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('verified TLS', () => {
  it('connects with sslmode=verify-full and the team’s CA, and says the connection is encrypted', async () => {
    const url = `${plainAlice()}?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.caFile)}`;
    const status = await statusOf(url);
    expect(status).toMatchObject({
      mode: 'team',
      reachable: true,
      login: 'alice',
      local: true,
      encryption: { encrypted: true, protocol: 'TLSv1.3' },
    });
    expect(JSON.stringify(status)).not.toContain('alice-password');

    const tried = teamChannels['team.test'].response.parse(
      await connection('postgres://x@nowhere/x').test(url),
    );
    expect(tried.ok).toBe(true);
    expect(tried.message).toContain('as alice, preparer; encrypted (TLSv1.3).');
  });

  it('takes the server name as well as the address the certificate is for', async () => {
    const url = `${plainAlice('localhost')}?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.caFile)}`;
    expect(await statusOf(url)).toMatchObject({ reachable: true, encryption: { encrypted: true } });
  });

  it('reads PGSSLMODE and PGSSLROOTCERT when the address says nothing of TLS', async () => {
    const status = await statusOf(plainAlice(), { PGSSLMODE: 'verify-full', PGSSLROOTCERT: tls.caFile });
    expect(status).toMatchObject({ reachable: true, encryption: { encrypted: true, protocol: 'TLSv1.3' } });
  });

  it('checks the certificate but not the host name with sslmode=verify-ca and a CA file', async () => {
    const ca = `sslrootcert=${encodeURIComponent(tls.caFile)}`;
    const verifyCa = await statusOf(`${plainAlice(tls.unnamedHost)}?sslmode=verify-ca&${ca}`);
    expect(verifyCa).toMatchObject({ reachable: true, encryption: { encrypted: true } });

    const stranger = await statusOf(
      `${plainAlice()}?sslmode=verify-ca&sslrootcert=${encodeURIComponent(tls.strangerCaFile)}`,
    );
    expect(problemOf(stranger)).toMatch(/not signed by a certificate authority this computer trusts/);

    const noCa = await statusOf(`${plainAlice()}?sslmode=verify-ca`);
    expect(problemOf(noCa)).toMatch(/verify-ca checks the certificate only against a CA file/);
  });
});

describe('what is refused, in plain words', () => {
  it('refuses a certificate from a CA this computer does not trust (no CA given, or the wrong one)', async () => {
    const noCa = await statusOf(`${plainAlice()}?sslmode=verify-full`);
    expect(problemOf(noCa)).toBe(
      `The team database's certificate (127.0.0.1:${team.port}/desk) is not signed by a certificate authority this computer trusts: give the team's CA file as sslrootcert=… in the address (sslrootcert=/full/path/team-ca.crt), or ask your admin.`,
    );
    const wrongCa = await statusOf(
      `${plainAlice()}?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.strangerCaFile)}`,
    );
    expect(problemOf(wrongCa)).toMatch(/not signed by a certificate authority this computer trusts/);
  });

  it('checks the certificate for sslmode=require too (pg 8.23 reads it as verify-full; so does Donation Desk)', async () => {
    const required = await statusOf(`${plainAlice()}?sslmode=require`);
    expect(problemOf(required)).toMatch(/not signed by a certificate authority this computer trusts/);
    const withCa = await statusOf(
      `${plainAlice()}?sslmode=require&sslrootcert=${encodeURIComponent(tls.caFile)}`,
    );
    expect(withCa).toMatchObject({ reachable: true, encryption: { encrypted: true } });
  });

  it('refuses a certificate for another name than the one in the address', async () => {
    const status = await statusOf(
      `${plainAlice(tls.unnamedHost)}?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.caFile)}`,
    );
    expect(problemOf(status)).toBe(
      "The team database's certificate is for localhost, 127.0.0.1, not for 127.0.0.2, the server name in the address: use the name the certificate is for in the address, or ask your admin.",
    );
  });

  it('says a server that takes encrypted logins only wants sslmode, when the address has none', async () => {
    const status = await statusOf(plainAlice());
    expect(problemOf(status)).toBe(
      `The team database at 127.0.0.1:${team.port}/desk accepts encrypted connections only: add ?sslmode=verify-full&sslrootcert=… (the team's CA file) to the address, or ask your admin.`,
    );
    expect(JSON.stringify(status)).not.toContain('alice-password');
    // sslmode=disable is the same plaintext, whatever PGSSLMODE says.
    const disabled = await statusOf(`${plainAlice()}?sslmode=disable`, { PGSSLMODE: 'verify-full' });
    expect(problemOf(disabled)).toMatch(/accepts encrypted connections only/);
  });

  it('says a server without TLS does not offer it, when the address asks for it', async () => {
    const url = `${plainServer.plainUrl()}?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.caFile)}`;
    expect(problemOf(await statusOf(url))).toBe(
      `The team database at 127.0.0.1:${plainServer.port}/desk does not offer encryption (TLS), and the address asks for it (sslmode): ask your admin to turn TLS on at the server (ssl = on). Do not take sslmode out for a server reached over a network.`,
    );
    // Plaintext to it works, and the status says so (no warning: the server is on this computer).
    const plain = await statusOf(plainServer.plainUrl());
    expect(plain).toMatchObject({ local: true, encryption: { encrypted: false, protocol: null } });
  });

  it('says what is wrong with a CA file, and refuses sslmode=no-verify and modes it does not know', async () => {
    const missing = join(work, 'no-such-ca.crt');
    expect(problemOf(await statusOf(`${plainAlice()}?sslmode=verify-full&sslrootcert=${missing}`))).toBe(
      `The CA file given as sslrootcert (${missing}) cannot be used: there is no such file. Give the full path of the team’s CA file (ask your admin).`,
    );
    const notPem = join(work, 'notes.txt');
    await writeFile(notPem, 'not a certificate\n');
    expect(problemOf(await statusOf(`${plainAlice()}?sslmode=verify-full&sslrootcert=${notPem}`))).toMatch(
      /holds no certificate \(a PEM file starting with -----BEGIN CERTIFICATE-----\)/,
    );
    expect(problemOf(await statusOf(`${plainAlice()}?sslmode=verify-full&sslrootcert=team-ca.crt`))).toMatch(
      /must be a full path/,
    );
    expect(problemOf(await statusOf(`${plainAlice()}?sslmode=no-verify`))).toMatch(
      /sslmode=no-verify is not accepted/,
    );
    expect(problemOf(await statusOf(`${plainAlice()}?sslmode=sometimes`))).toMatch(
      /sslmode=sometimes is not one Donation Desk knows/,
    );
  });
});

describe('the command line over TLS', () => {
  it('lists approvals with DONATION_DESK_DATABASE_URL carrying sslmode and sslrootcert', async () => {
    const dir = await mkdtemp(join(work, 'cli-'));
    const bob = team.plainUrl('bob', 'bob-password');
    const ok = await runCliInProcess(emu, dir, ['approvals', '--json'], {
      DONATION_DESK_DATABASE_URL: `${bob}?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.caFile)}`,
    });
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toEqual({ approvals: [] });

    const refused = await runCliInProcess(emu, dir, ['approvals', '--json'], {
      DONATION_DESK_DATABASE_URL: `${bob}?sslmode=verify-full`,
    });
    expect(refused.code).toBe(3);
    expect(refused.err).toMatch(/not signed by a certificate authority this computer trusts/);
    expect(refused.err).not.toContain('bob-password');

    const missingCa = await runCliInProcess(emu, dir, ['approvals', '--json'], {
      DONATION_DESK_DATABASE_URL: `${bob}?sslmode=verify-full&sslrootcert=${encodeURIComponent(join(work, 'gone.crt'))}`,
    });
    expect(missingCa.code).toBe(2);
    expect(missingCa.err).toMatch(
      /The CA file given as sslrootcert \(.*gone\.crt\) cannot be used: there is no such file/,
    );
  });

  it('sets up the team database over TLS with db init-team, the parameters meaning the same', async () => {
    const dir = await mkdtemp(join(work, 'init-'));
    const admin = team.plainUrl();
    const again = await runCliInProcess(emu, dir, [
      'db',
      'init-team',
      '--url',
      `${admin}?sslmode=require&sslrootcert=${encodeURIComponent(tls.caFile)}`,
    ]);
    expect(again.err).toBe('');
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/is already set up, schema version \d+/);

    const untrusted = await runCliInProcess(emu, dir, [
      'db',
      'init-team',
      '--url',
      `${admin}?sslmode=require`,
    ]);
    expect(untrusted.code).toBe(3);
    expect(untrusted.err).toMatch(/not signed by a certificate authority this computer trusts/);
    expect(untrusted.err).not.toContain('cluster-admin-password');

    const plaintext = await runCliInProcess(emu, dir, ['db', 'init-team', '--url', admin]);
    expect(plaintext.code).toBe(3);
    expect(plaintext.err).toMatch(/accepts encrypted connections only/);
  });
});
