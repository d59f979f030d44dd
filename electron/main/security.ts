import type { Session, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../services/core/contentSecurityPolicy';

type Headers = Record<string, string[]>;

function withPolicy(headers: Headers | undefined, policy: string): Headers {
  const result: Headers = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    // A server's own (possibly weaker) policy must not sit beside ours under another spelling.
    if (name.toLowerCase() !== 'content-security-policy') result[name] = value;
  }
  result['Content-Security-Policy'] = [policy];
  return result;
}

/**
 * Session-wide rules: our CSP on every response, and no web permission (camera, notifications,
 * geolocation, clipboard read, …) for any page. The app needs none: notifications come from main.
 * The policy is the one browser mode and renderer/index.html's meta tag use; the meta tag is what
 * applies to the file:// page, which gets no headers, and the header adds frame-ancestors, which a
 * meta tag cannot carry.
 */
export function applySessionSecurity(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withPolicy(details.responseHeaders, CONTENT_SECURITY_POLICY) });
  });
}

export interface ContentsSecurityOptions {
  isOwnRendererUrl: (url: string) => boolean;
  /**
   * Offered every address the page tried to leave for or open in a new window. It opens the address
   * in the system browser only when it passes the program-site allowlist (platform.ts), so there is a
   * single guarded call to shell.openExternal in the app.
   */
  offerExternalLink: (url: string) => void;
}

/**
 * Per-page rules: the window never leaves our renderer and never opens another window. Links to the
 * program's site open in the system browser instead.
 */
export function hardenWebContents(contents: WebContents, options: ContentsSecurityOptions): void {
  contents.on('will-navigate', (event, url) => {
    // In-page (hash) navigation does not fire will-navigate, so every event here would leave the app.
    event.preventDefault();
    if (!options.isOwnRendererUrl(url)) options.offerExternalLink(url);
  });
  contents.on('will-redirect', (event) => {
    event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    options.offerExternalLink(url);
    return { action: 'deny' };
  });
}
