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
