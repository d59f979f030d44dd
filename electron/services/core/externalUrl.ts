/**
 * The only addresses the app hands to the system browser: https on the configured program domain
 * (or one of its subdomains). The Offline sandbox's program pages are served on this computer, so for
 * it a loopback http origin given explicitly is allowed too.
 */
export function isAllowedExternalUrl(raw: string, programUrl: string): boolean {
  let url: URL;
  let program: URL;
  try {
    url = new URL(raw);
    program = new URL(programUrl);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const loopback = (h: string) => h === '127.0.0.1' || h === 'localhost' || h === '[::1]';
  if (program.protocol === 'http:' && loopback(program.hostname)) {
    return url.protocol === 'http:' && url.host === program.host;
  }
  if (url.protocol !== 'https:' || program.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  const domain = program.hostname.toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}
