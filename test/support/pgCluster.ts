import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/*
 * A throwaway PostgreSQL cluster for tests: Debian's server binaries (the `postgresql` package,
 * which .ci/run installs), a data folder in a temp folder, loopback only on a free port, password
 * logins. It is never the Debian-managed cluster. Started once per test file (beforeAll) and
 * stopped in afterAll; a process exit that skipped afterAll still stops it and removes the folder.
 *
 * With `tls`, the server also speaks TLS (ssl = on) with a certificate for localhost and 127.0.0.1
 * signed by a CA made for this cluster alone, and listens on 127.0.0.2 as well (a loopback address
 * the certificate does not name, to show a host-name mismatch). With `tls.hostsslOnly`, pg_hba.conf
 * has only hostssl lines, as a team server on a network should: a plaintext login is refused.
 */

export interface PgClusterOptions {
  tls?: { hostsslOnly?: boolean };
}

export interface PgClusterTls {
  /** The CA that signed the server's certificate (PEM), as a team's admin would hand it out. */
  caFile: string;
  /** A CA that signed nothing of this server's (PEM): trusting it instead is as good as none. */
  strangerCaFile: string;
  /** Whether plaintext logins are refused (pg_hba.conf has hostssl lines only). */
  hostsslOnly: boolean;
  /** A loopback address the server listens on that its certificate does not name. */
  unnamedHost: string;
}

export interface PgCluster {
  /**
   * postgres://login:password@127.0.0.1:port/database (default: the superuser on `desk`); with TLS,
   * followed by ?sslmode=verify-full&sslrootcert=<the cluster's CA>.
   */
  url(login?: string, password?: string, database?: string): string;
  /** The same address without any TLS parameter (plaintext). */
  plainUrl(login?: string, password?: string, database?: string): string;
  /** The TLS material, or null for a plaintext-only cluster. */
  readonly tls: PgClusterTls | null;
  /** The superuser on the `desk` database. */
  readonly adminUrl: string;
  readonly port: number;
  /** Runs one statement as the superuser on the `desk` database. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
  ): Promise<pg.QueryResult<R>>;
  /** A LOGIN role with this password, member of `roles` (e.g. desk_preparer). */
  createLogin(login: string, password: string, roles?: string[]): Promise<void>;
  stop(): Promise<void>;
}

export const SUPERUSER = 'postgres';
const SUPERUSER_PASSWORD = 'cluster-admin-password';
export const TEST_DATABASE = 'desk';

/** The newest server's bin folder under /usr/lib/postgresql, or null when none is installed. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function postgresIds(): { uid: number; gid: number } {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('Running as root needs the postgres OS user (from the postgresql package).');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Runs a server binary, as the postgres OS user when we are root (the server refuses root). */
function runServerTool(bin: string, tool: string, args: string[]): void {
  const command = asRoot ? 'runuser' : join(bin, tool);
  const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) {
    throw new Error(
      `${tool} ${args.join(' ')} failed (exit ${result.status}): ${result.stderr || result.stdout || result.error}`,
    );
  }
}

function startReaper(bin: string, data: string, dir: string) {
  const pgCtl = `${asRoot ? 'runuser -u postgres -- ' : ''}'${join(bin, 'pg_ctl')}'`;
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done`,
    `${pgCtl} -D '${data}' -m immediate -w stop >/dev/null 2>&1`,
    `rm -rf '${dir}'`,
  ].join('; ');
  const reaper = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  reaper.unref();
  return reaper;
}

const running = new Set<() => void>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const stop of running) stop();
  });
}

/** Runs openssl (Debian's postgresql package brings it: postgresql-common → ssl-cert → openssl). */
function openssl(args: string[], cwd: string): void {
  const result = spawnSync('openssl', args, { cwd, encoding: 'utf8', timeout: 30_000 });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error('openssl is needed for a TLS test cluster: install it (apt-get install -y openssl).');
  }
  if (result.status !== 0) {
    throw new Error(`openssl ${args[0]} failed (exit ${result.status}): ${result.stderr || result.stdout}`);
  }
}

/** A CA, and a server certificate it signs for localhost and 127.0.0.1; EC P-256, valid two days. */
function makeCertificates(dir: string): {
  caFile: string;
  strangerCaFile: string;
  certFile: string;
  keyFile: string;
} {
  const newCa = (name: string, cn: string) =>
    openssl(
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.crt`,
        '-days',
        '2',
        '-subj',
        `/CN=${cn}`,
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ],
      dir,
    );
  newCa('ca', 'Donation Desk test team CA');
  newCa('stranger-ca', 'Someone else’s CA');
  openssl(
    [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=localhost',
    ],
    dir,
  );
  writeFileSync(
    join(dir, 'server.ext'),
    [
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
    ].join('\n') + '\n',
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ],
    dir,
  );
  // The server refuses a key file others may read.
  chmodSync(join(dir, 'server.key'), 0o600);
  return {
    caFile: join(dir, 'ca.crt'),
    strangerCaFile: join(dir, 'stranger-ca.crt'),
    certFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
  };
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql: install the postgresql package (apt-get install -y postgresql).',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'desk-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`);
  const certificates = options.tls ? makeCertificates(dir) : null;
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
    if (certificates) {
      chownSync(certificates.certFile, uid, gid);
      chownSync(certificates.keyFile, uid, gid);
    }
  }
  chmodSync(dir, 0o700);
  // Readable by whoever runs the tests (the CA file is what a person would be handed).
  if (certificates) {
    chmodSync(certificates.caFile, 0o644);
    chmodSync(certificates.strangerCaFile, 0o644);
  }
  const hostsslOnly = options.tls?.hostsslOnly === true;

  // A test process killed outright (a worker ended by the runner, Ctrl+C, SIGKILL) runs no hook: a
  // detached watcher stops the server and removes the folder once this process is gone.
  const reaper = startReaper(bin, data, dir);

  let port = 0;
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    running.delete(stopNow);
    try {
      if (reaper.pid) process.kill(reaper.pid);
    } catch {
      // Already gone.
    }
    if (existsSync(join(data, 'postmaster.pid'))) {
      try {
        runServerTool(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already gone: nothing to stop.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  running.add(stopNow);
  installExitHook();

  try {
    runServerTool(bin, 'initdb', [
      '-D',
      data,
      '-U',
      SUPERUSER,
      `--pwfile=${pwfile}`,
      '--auth-local=scram-sha-256',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    if (hostsslOnly) {
      // As a team server on a network should be: TCP logins only over TLS, the local socket as before.
      writeFileSync(
        join(data, 'pg_hba.conf'),
        [
          'local   all  all                 scram-sha-256',
          'hostssl all  all  127.0.0.1/32    scram-sha-256',
          'hostssl all  all  127.0.0.2/32    scram-sha-256',
          '',
        ].join('\n'),
      );
    }
    // A taken port (another cluster raced us to it) is retried with a fresh one.
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      try {
        runServerTool(bin, 'pg_ctl', [
          '-D',
          data,
          '-l',
          log,
          '-w',
          '-t',
          '30',
          '-o',
          [
            `-p ${port}`,
            `-k ${dir}`,
            certificates ? "-c listen_addresses='127.0.0.1,127.0.0.2'" : "-c listen_addresses='127.0.0.1'",
            ...(certificates
              ? [
                  '-c ssl=on',
                  `-c ssl_cert_file=${certificates.certFile}`,
                  `-c ssl_key_file=${certificates.keyFile}`,
                ]
              : []),
            '-c fsync=off',
            '-c synchronous_commit=off',
            '-c full_page_writes=off',
            '-c shared_buffers=16MB',
            '-c max_connections=40',
            '-c max_wal_senders=0',
            '-c wal_level=minimal',
          ].join(' '),
          'start',
        ]);
        break;
      } catch (e) {
        if (attempt >= 2) throw e;
      }
    }
    const admin = new pg.Client({
      host: '127.0.0.1',
      port,
      user: SUPERUSER,
      password: SUPERUSER_PASSWORD,
      database: 'postgres',
      ...(certificates ? { ssl: { ca: readFileSync(certificates.caFile, 'utf8') } } : {}),
    });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${TEST_DATABASE}`);
    } finally {
      await admin.end();
    }
  } catch (e) {
    stopNow();
    throw e;
  }

  const plainUrl = (login = SUPERUSER, password = SUPERUSER_PASSWORD, database = TEST_DATABASE) =>
    `postgres://${encodeURIComponent(login)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  const tlsParameters = certificates
    ? `?sslmode=verify-full&sslrootcert=${encodeURIComponent(certificates.caFile)}`
    : '';
  const url = (login?: string, password?: string, database?: string) =>
    plainUrl(login, password, database) + tlsParameters;
  const adminUrl = url();
  const tls: PgClusterTls | null = certificates
    ? {
        caFile: certificates.caFile,
        strangerCaFile: certificates.strangerCaFile,
        hostsslOnly,
        unnamedHost: '127.0.0.2',
      }
    : null;

  const query = async <R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await client.query<R>(sql, params);
    } finally {
      await client.end();
    }
  };

  return {
    url,
    plainUrl,
    tls,
    adminUrl,
    port,
    query,
    async createLogin(login, password, roles = []) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        const quoted = client.escapeIdentifier(login);
        await client.query(`CREATE ROLE ${quoted} LOGIN PASSWORD ${client.escapeLiteral(password)}`);
        for (const role of roles) await client.query(`GRANT ${client.escapeIdentifier(role)} TO ${quoted}`);
      } finally {
        await client.end();
      }
    },
    async stop() {
      stopNow();
    },
  };
}
