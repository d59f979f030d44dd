/**
 * Email syntax a mail system will deliver to: dot-atom local part (≤64) @ a domain of at least two
 * DNS labels with a top-level label of 2+ letters (or an xn-- label), ≤254 in all. Quoted local
 * parts and IP-literal domains are valid in RFC 5322 but are refused: in a donor list they are
 * almost always typing mistakes, and receipts would bounce.
 */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export function isEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  return local.length <= 64 && LOCAL.test(local) && isDomain(domain);
}

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
