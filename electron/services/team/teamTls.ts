import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import pg from 'pg';
import { sslModeProblem } from '../../../shared/contract/teamChannels';
import { DeskFailure } from '../../../shared/result';
import type { TeamEncryptionSeen } from '../../../shared/team/encryptionWords';

/*
 * TLS to the team database, as people who know psql write it: sslmode and sslrootcert in the
 * address (or PGSSLMODE and PGSSLROOTCERT). What each means here is decided in this file, not left
 * to the driver's reading of the address, which has changed between versions (pg 8.23 reads
 * require and verify-ca as verify-full, pg 9 will read them as libpq does):
 *
 * - none, or disable: plaintext (the header warns when the server is not on this computer);
 * - require (and allow, prefer): encrypted, and the certificate checked against the CA and the host
 *   name, like verify-full. Stricter than psql, which encrypts without checking for require: an
 *   unchecked certificate lets anyone on the way read the traffic, so it is not offered;
 * - verify-ca: encrypted, the certificate checked against the CA given as sslrootcert (required),
 *   the host name not;
 * - verify-full: encrypted, certificate and host name checked;
 * - sslrootcert=PATH: the CA file (PEM) to trust instead of the built-in list of public CAs;
 *   sslrootcert=system, or none: the built-in list. Giving sslrootcert alone means verify-full.
 * The driver is then handed one unambiguous address: sslmode=disable, sslmode=verify-full, or
 * verify-ca in libpq's own sense, so that PGSSLMODE in the process's environment cannot change it.
 */

/** How the connection is asked to be made. */
export type TeamTlsAsked = 'plaintext' | 'verify-full' | 'verify-ca';

export interface TeamTlsPlan {
  asked: TeamTlsAsked;
  /** The CA file to trust (an absolute path), or null for the built-in list. */
  rootCert: string | null;
  /** The address the driver is given (with the password, if the address had one). */
  address: string;
}

const TLS_PARAMETERS = ['sslmode', 'sslrootcert', 'ssl', 'uselibpqcompat'];

function badTls(message: string): DeskFailure {
  return new DeskFailure('INVALID_INPUT', message);
}

function asked(mode: string | null, rootCert: string | null, ssl: string | null): TeamTlsAsked {
  if (mode === null) {
    if (ssl === 'true' || ssl === '1') return 'verify-full';
    return rootCert ? 'verify-full' : 'plaintext';
  }
  if (mode === 'disable') return 'plaintext';
  if (mode === 'verify-ca') return 'verify-ca';
  const problem = sslModeProblem(mode);
  if (problem) throw badTls(problem);
  return 'verify-full';
}

/** ~/ at the start of a path is the home folder, as in a shell. */
function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path;
}

/**
 * What the address (and PGSSLMODE / PGSSLROOTCERT in `env`, when the address says nothing) asks for,
 * and the address to give the driver. Reads no file; throws INVALID_INPUT for what cannot be meant.
 */
export function teamTlsPlan(url: string, env: Record<string, string | undefined> = {}): TeamTlsPlan {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // describeServer() says what a team database address looks like.
    return { asked: 'plaintext', rootCert: null, address: url };
  }
  const params = parsed.searchParams;
  const mode = (params.get('sslmode') ?? env.PGSSLMODE ?? '').trim().toLowerCase() || null;
  const rootCertText = (params.get('sslrootcert') ?? env.PGSSLROOTCERT ?? '').trim() || null;
  const ssl = params.get('ssl');
  const plan = asked(mode, rootCertText, ssl);
  let rootCert: string | null = null;
  if (rootCertText && rootCertText.toLowerCase() !== 'system' && plan !== 'plaintext') {
    rootCert = expandHome(rootCertText);
    if (!isAbsolute(rootCert)) {
      throw badTls(
        `The CA file given as sslrootcert (${rootCertText}) must be a full path, such as /home/you/team-ca.crt.`,
      );
    }
  }
  if (plan === 'verify-ca' && !rootCert) {
    throw badTls(
      'sslmode=verify-ca checks the certificate only against a CA file: give the team’s CA as sslrootcert=… (or use sslmode=verify-full).',
    );
  }
  for (const name of TLS_PARAMETERS) params.delete(name);
  if (plan === 'plaintext') {
    params.set('sslmode', 'disable');
  } else {
    params.set('sslmode', plan);
    if (plan === 'verify-ca') params.set('uselibpqcompat', 'true');
    if (rootCert) params.set('sslrootcert', rootCert);
  }
  return { asked: plan, rootCert, address: parsed.toString() };
}

/**
 * Checks the CA file can be read and holds a certificate, so that a wrong path is told as such
 * rather than as a driver error at each connection.
 */
export function checkRootCert(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'this account may not read it'
          : code === 'EISDIR'
            ? 'it is a folder'
            : 'it cannot be read';
    throw badTls(
      `The CA file given as sslrootcert (${path}) cannot be used: ${why}. Give the full path of the team’s CA file (ask your admin).`,
    );
  }
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(text);
  let valid = false;
  if (first) {
    try {
      new X509Certificate(first[0]);
      valid = true;
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw badTls(
      `The CA file given as sslrootcert (${path}) holds no certificate (a PEM file starting with -----BEGIN CERTIFICATE-----): ask your admin for the team’s CA file.`,
    );
  }
}

/** Whether the server is on this computer (loopback or a socket): plaintext there crosses no network. */
export function isLocalServer(url: string): boolean {
  let host: string;
  try {
    const parsed = new URL(url);
    host = decodeURIComponent(parsed.searchParams.get('host') ?? parsed.hostname);
  } catch {
    return false;
  }
  host = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\./.test(host) || host.startsWith('/') || host === '';
}

export type TeamEncryption = TeamEncryptionSeen;

/**
 * What the server says of a connection made as the app's are (pg_stat_ssl): one short connection,
 * since the pool's own are not reachable from here. Throws what the driver throws.
 */
export async function readEncryption(address: string, timeoutMs = 5_000): Promise<TeamEncryption> {
  const client = new pg.Client({
    connectionString: address,
    connectionTimeoutMillis: timeoutMs,
    application_name: 'Donation Desk',
  });
  // An error after the answer (the server closing first) is not this check's business.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ ssl: boolean | null; version: string | null }>(
      'SELECT ssl, version FROM pg_catalog.pg_stat_ssl WHERE pid = pg_catalog.pg_backend_pid()',
    );
    const row = rows[0];
    return row?.ssl
      ? { encrypted: true, protocol: row.version ?? null }
      : { encrypted: false, protocol: null };
  } finally {
    await client.end().catch(() => undefined);
  }
}
