/**
 * Email syntax a mail system will deliver to: dot-atom local part (≤64) @ a domain of at least two
 * DNS labels with a top-level label of 2+ letters (or an xn-- label), ≤254 in all. Quoted local
 * parts and IP-literal domains are valid in RFC 5322 but are refused: in a donor list they are
 * almost always typing mistakes, and receipts would bounce.
 */
const DOMAIN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export function isEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  return local.length <= 64 && isLocalPart(local) && isDomain(domain);
}

/**
 * The local part as dot-separated atoms (RFC 5322 dot-atom), by hand rather than with a regex: every
 * donor's address passes here. email.test.ts holds it to the regex
 * /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.
 */
function isLocalPart(local: string): boolean {
  let atomLength = 0;
  for (let i = 0; i < local.length; i++) {
    const c = local.charCodeAt(i);
    if (c === 46) {
      if (atomLength === 0) return false;
      atomLength = 0;
    } else if (c < 128 && ATOM_CHAR[c] === 1) {
      atomLength++;
    } else {
      return false;
    }
  }
  return atomLength > 0;
}

const ATOM_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+/=?^_`{|}~-")
  ATOM_CHAR[c.charCodeAt(0)] = 1;

// Donor lists share a few domains: each is judged once.
const DOMAINS_LIMIT = 10_000;
const domains = new Map<string, boolean>();

function isDomain(domain: string): boolean {
  let valid = domains.get(domain);
  if (valid === undefined) {
    if (domains.size >= DOMAINS_LIMIT) domains.clear();
    valid = DOMAIN.test(domain);
    domains.set(domain, valid);
  }
  return valid;
}

/** A plain reason for the person, naming the usual slip when there is one. */
export function emailProblem(text: string): string {
  const quoted = `Email "${text}"`;
  if (/\s/.test(text)) return `${quoted} contains spaces. Remove them.`;
  const ats = text.split('@').length - 1;
  if (ats === 0) return `${quoted} has no "@". Enter it as name@example.com.`;
  if (ats > 1) return `${quoted} has more than one "@". Enter a single address such as name@example.com.`;
  if (!/\.[A-Za-z]{2,}$/.test(text))
    return `${quoted} has no domain ending such as .com. Enter the full address.`;
  return `${quoted} is not a valid address. Enter it as name@example.com.`;
}
