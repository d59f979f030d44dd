import { describe, expect, it, vi } from 'vitest';
import type { Session, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../services/core/contentSecurityPolicy';

const electron = vi.hoisted(() => ({
  shell: { openExternal: vi.fn(async (_url: string) => undefined) },
}));

vi.mock('electron', () => ({
  app: {},
  Notification: class {},
  safeStorage: {},
  shell: electron.shell,
}));

const { applySessionSecurity, hardenWebContents } = await import('./security');
const { offerExternalLink } = await import('./platform');

const OWN_URL = 'file:///app/out/renderer/index.html';
const PROGRAM = 'https://giving.example.com';

type Listener = (event: { preventDefault: () => void }, url: string) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  const contents = {
    on: vi.fn((event: string, listener: Listener) => listeners.set(event, listener)),
    setWindowOpenHandler: vi.fn((handler: typeof openHandler) => {
      openHandler = handler;
    }),
  };
  const fire = (event: string, url: string) => {
    const preventDefault = vi.fn();
    listeners.get(event)?.({ preventDefault }, url);
    return preventDefault;
  };
  return {
    contents: contents as unknown as WebContents,
    fire,
    open: (url: string) => openHandler!({ url }),
  };
}

/** The page wired as in lifecycle.ts: links go through the real allowlist to the (mocked) shell. */
function hardenedPage(programUrl: string | null = PROGRAM) {
  electron.shell.openExternal.mockClear();
  const page = fakeContents();
  hardenWebContents(page.contents, {
    isOwnRendererUrl: (url) => url.split('#')[0] === OWN_URL,
    offerExternalLink: (url) => offerExternalLink(url, async () => programUrl),
  });
  return page;
}

const opened = () => electron.shell.openExternal.mock.calls.map(([url]) => url);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('hardenWebContents', () => {
  it('prevents every navigation, including to our own page and to the program site', async () => {
    const page = hardenedPage();
    for (const url of [
      OWN_URL,
      'https://evil.example/',
      `${PROGRAM}/opportunities/1`,
      'file:///etc/passwd',
    ]) {
      expect(page.fire('will-navigate', url)).toHaveBeenCalled();
    }
    await settle();
    // The program link goes to the system browser instead; nothing else does.
    expect(opened()).toEqual([`${PROGRAM}/opportunities/1`]);
  });

  it('prevents redirects and webviews', () => {
    const page = hardenedPage();
    expect(page.fire('will-redirect', 'https://evil.example/')).toHaveBeenCalled();
    expect(page.fire('will-attach-webview', 'https://evil.example/')).toHaveBeenCalled();
  });

  it('denies every new window and opens only https program-site addresses externally', async () => {
    const page = hardenedPage();
    const urls = [
      `${PROGRAM}/a`,
      'https://help.giving.example.com/b',
      'http://giving.example.com/c',
      'https://evil.example/',
      'https://giving.example.com.evil.example/',
      'https://evilgiving.example.com/',
      'https://user:pw@giving.example.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'about:blank',
      'not a url',
    ];
    for (const url of urls) expect(page.open(url)).toEqual({ action: 'deny' });
    await settle();
    expect(opened()).toEqual([`${PROGRAM}/a`, 'https://help.giving.example.com/b']);
  });

  it('opens nothing externally while no program site is configured', async () => {
    const page = hardenedPage(null);
    expect(page.open(`${PROGRAM}/a`)).toEqual({ action: 'deny' });
    page.fire('will-navigate', `${PROGRAM}/a`);
    await settle();
    expect(opened()).toEqual([]);
  });

  it('survives a system that cannot open the address', async () => {
    const page = hardenedPage();
    electron.shell.openExternal.mockRejectedValueOnce(new Error('no browser'));
    expect(page.open(`${PROGRAM}/a`)).toEqual({ action: 'deny' });
    await settle();
    expect(opened()).toEqual([`${PROGRAM}/a`]);
  });
});

describe('applySessionSecurity', () => {
  function fakeSession() {
    const session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    };
    applySessionSecurity(session as unknown as Session);
    return session;
  }

  it('denies every permission request and check', () => {
    const session = fakeSession();
    const request = session.setPermissionRequestHandler.mock.calls[0]![0] as (
      wc: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      request({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    const check = session.setPermissionCheckHandler.mock.calls[0]![0] as (...args: unknown[]) => boolean;
    for (const permission of ['media', 'notifications', 'clipboard-sanitized-write', 'fullscreen']) {
      expect(check({}, permission, 'file://', {})).toBe(false);
    }
    const device = session.setDevicePermissionHandler.mock.calls[0]![0] as (...args: unknown[]) => boolean;
    expect(device({})).toBe(false);
  });

  it('puts our policy on every response, replacing any other spelling of it', () => {
    const session = fakeSession();
    const listener = session.webRequest.onHeadersReceived.mock.calls[0]![0] as (
      details: { responseHeaders?: Record<string, string[]> },
      callback: (response: { responseHeaders: Record<string, string[]> }) => void,
    ) => void;
    const callback = vi.fn();
    listener(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] } },
      callback,
    );
    const headers = callback.mock.calls[0]![0].responseHeaders as Record<string, string[]>;
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['Content-Type']).toEqual(['text/html']);

    listener({}, callback);
    expect(callback.mock.calls[1]![0].responseHeaders).toEqual({
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
  });

  it('uses a policy without eval or remote scripts, and that forbids framing, plugins and forms', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });
});
