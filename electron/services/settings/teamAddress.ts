/*
 * A team database address as people write it (postgres://login:password@host:5432/database), taken
 * apart so that the password can be kept like a client secret and everything else shown.
 */

export interface TeamAddressParts {
  /** The address without its password (what Settings shows and keeps in plain). */
  address: string;
  /** The password typed into the address, or null. */
  password: string | null;
}

function parse(url: string): URL | null {
  try {
    const parsed = new URL(url.trim());
    return /^postgres(ql)?:$/i.test(parsed.protocol) ? parsed : null;
  } catch {
    return null;
  }
}

/** Splits the password out of an address; an address that is not a URL is returned unchanged. */
export function splitTeamAddress(url: string): TeamAddressParts {
  const parsed = parse(url);
  if (!parsed) return { address: url.trim(), password: null };
  const password = parsed.password ? decodeURIComponent(parsed.password) : null;
  parsed.password = '';
  return { address: parsed.toString(), password };
}

/** The address with a password put back in, for the connection only (never shown, never logged). */
export function joinTeamAddress(address: string, password: string | null): string {
  const parsed = parse(address);
  if (!parsed || !password) return address;
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** host:port/database, as the header shows it; never the login's password. */
export function teamServerOf(url: string): string {
  const parsed = parse(url);
  if (!parsed) return 'an address that cannot be read';
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.username || 'postgres';
  return `${host}:${parsed.port || '5432'}/${database}`;
}

/** Whether two addresses name the same login on the same server and database (a stored password fits both). */
export function sameTeamLogin(a: string, b: string): boolean {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return false;
  return pa.username === pb.username && teamServerOf(a) === teamServerOf(b);
}
