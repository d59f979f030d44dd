import { DeskFailure } from '../../../shared/result';

/*
 * What the team database's answers mean to a person. The server's own refusals (SQLSTATE class DD,
 * see teamSchema.ts) are already written in plain words and pass through; the driver's and the
 * server's other errors are told as what happened and what to do. Never a password.
 */

/** host:port/database of a postgres:// address, never its password; throws for what is no address. */
export function describeServer(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badAddress();
  }
  if (!['postgres:', 'postgresql:'].includes(parsed.protocol) || !parsed.hostname) throw badAddress();
  const database =
    decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username);
  return `${parsed.hostname}:${parsed.port || '5432'}/${database}`;
}

function badAddress(): DeskFailure {
  return new DeskFailure(
    'INVALID_INPUT',
    'The team database address must look like postgres://login:password@host:5432/desk.',
  );
}

/** The password in an address, to keep it out of any message made from the driver's text. */
export function passwordOf(url: string): string | null {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password || null;
  } catch {
    return null;
  }
}

interface DriverError {
  code?: string;
  message?: string;
  detail?: string;
  /** Node's TLS errors: the certificate the server showed, and the name it was checked against. */
  cert?: { subjectaltname?: string; subject?: { CN?: string } };
  host?: string;
  /** A file the driver could not open (sslrootcert). */
  path?: string;
  syscall?: string;
}

/** The server's certificate is signed by no CA trusted here (Node's codes for it). */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'CERT_REJECTED',
]);

/** The names a certificate is for, from Node's "DNS:localhost, IP Address:127.0.0.1". */
function certificateNames(e: DriverError): string[] {
  const alt = e.cert?.subjectaltname;
  if (alt) return alt.split(/,\s*/).map((n) => n.replace(/^(DNS|IP Address):/, ''));
  return e.cert?.subject?.CN ? [e.cert.subject.CN] : [];
}

/** TLS problems in plain words, or null when the error is none of them. */
function tlsFailure(e: DriverError, server: string, message: string): DeskFailure | null {
  const code = e.code ?? '';
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return new DeskFailure(
      'TEAM_UNREACHABLE',
      `The team database's certificate (${server}) is not signed by a certificate authority this computer trusts: give the team's CA file as sslrootcert=… in the address (sslrootcert=/full/path/team-ca.crt), or ask your admin.`,
      { tls: 'untrusted' },
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = certificateNames(e);
    const host = e.host ?? server.replace(/:\d+\/.*$/, '');
    const forNames = names.length ? `is for ${names.join(', ')}, not for ${host}` : `is not for ${host}`;
    return new DeskFailure(
      'TEAM_UNREACHABLE',
      `The team database's certificate ${forNames}, the server name in the address: use the name the certificate is for in the address, or ask your admin.`,
      { tls: 'name-mismatch' },
    );
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return new DeskFailure(
      'TEAM_UNREACHABLE',
      `The team database's certificate (${server}) ${code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'}: ask your admin to renew it, and check this computer's date and time.`,
      { tls: 'expired' },
    );
  }
  if (/server does not support SSL/i.test(message)) {
    return new DeskFailure(
      'TEAM_UNREACHABLE',
      `The team database at ${server} does not offer encryption (TLS), and the address asks for it (sslmode): ask your admin to turn TLS on at the server (ssl = on). Do not take sslmode out for a server reached over a network.`,
      { tls: 'not-offered' },
    );
  }
  // pg_hba.conf has only hostssl lines for this computer: the server takes encrypted logins only.
  if (code === '28000' && /no encryption|SSL off/i.test(message)) {
    return new DeskFailure(
      'TEAM_UNREACHABLE',
      `The team database at ${server} accepts encrypted connections only: add ?sslmode=verify-full&sslrootcert=… (the team's CA file) to the address, or ask your admin.`,
      { tls: 'required', sqlstate: code },
    );
  }
  if (e.syscall === 'open' && e.path) {
    return new DeskFailure(
      'INVALID_INPUT',
      `The CA file given as sslrootcert (${e.path}) cannot be read: give the full path of the team's CA file (ask your admin).`,
      { tls: 'ca-file' },
    );
  }
  return null;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

function reasonOf(e: DriverError): string {
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED') return 'nothing answers at that address and port';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the server name is not known on this network';
  if (code === 'ETIMEDOUT' || /timeout/i.test(e.message ?? '')) return 'it did not answer in time';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the network does not lead there';
  return (e.message ?? 'the connection failed').replace(/\.$/, '');
}

/** Turns anything the driver or server threw into a DeskFailure a person can act on. */
export function teamFailure(error: unknown, server: string, password: string | null = null): DeskFailure {
  if (error instanceof DeskFailure) return error;
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as DriverError;
  const code = e.code ?? '';
  const scrub = (text: string) => (password ? text.split(password).join('•••') : text);
  const message = scrub(e.message ?? String(error));
  if (/^DD\d{3}$/.test(code)) return new DeskFailure('TEAM_REFUSED', message, { sqlstate: code });
  const tls = tlsFailure(e, server, message);
  if (tls) return tls;
  if (code === '42501') {
    return new DeskFailure(
      'TEAM_REFUSED',
      `The team database refused this (${message}): your login lacks the desk role it needs; ask the team's admin.`,
      { sqlstate: code },
    );
  }
  if (code === '28P01' || code === '28000') {
    return new DeskFailure(
      'TEAM_LOGIN_FAILED',
      `The team database at ${server} refused the login: ${message}. Check the login and password in the address.`,
      { sqlstate: code },
    );
  }
  // The server asked for a password and none was given: the address has none, and neither has
  // PGPASSWORD nor ~/.pgpass (commands cannot unlock the one Settings keeps in the key store).
  if (
    /client password must be a string|password authentication.*no password|no password (was )?(supplied|provided)/i.test(
      message,
    )
  ) {
    return new DeskFailure(
      'TEAM_LOGIN_FAILED',
      `The team database at ${server} asks for a password and none was given. Enter it in Settings → Team database (the app), or, for commands, put it in the address of DONATION_DESK_DATABASE_URL, in PGPASSWORD or in ~/.pgpass.`,
    );
  }
  if (code === '3D000') {
    return new DeskFailure('TEAM_UNREACHABLE', `The team database at ${server} does not exist: ${message}.`, {
      sqlstate: code,
    });
  }
  if (code === '57014') {
    return new DeskFailure(
      'TEAM_UNREACHABLE',
      `The team database at ${server} did not finish in time; try again in a moment.`,
      { sqlstate: code },
    );
  }
  if (code === '23505') {
    return new DeskFailure('TEAM_REFUSED', `The team database already holds this: ${message}.`, {
      sqlstate: code,
    });
  }
  if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || code === '57P01' || !code) {
    return new DeskFailure(
      'TEAM_UNREACHABLE',
      `The team database at ${server} cannot be reached: ${scrub(reasonOf(e))}. Preparing and checking work without it; sending and approving need it.`,
    );
  }
  return new DeskFailure('TEAM_ERROR', `The team database at ${server} answered with an error: ${message}.`, {
    sqlstate: code,
  });
}
