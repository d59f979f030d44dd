import { describe, expect, it, vi } from 'vitest';
import type { Session, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../services/contentSecurityPolicy';
import {
  applySessionSecurity,
  hardenWebContents,
  openExternallyIfAllowed,
  type ContentsSecurityOptions,
} from './security';

vi.mock('electron', () => ({}));

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
    listeners,
    fire,
    open: (url: string) => openHandler!({ url }),
  };
}

function options(overrides: Partial<ContentsSecurityOptions> = {}): ContentsSecurityOptions {
  return {
    isOwnRendererUrl: (url) => url.split('#')[0] === OWN_URL,
    programUrl: async () => PROGRAM,
    openExternal: vi.fn(async () => undefined),
    ...overrides,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('hardenWebContents', () => {
  it('prevents every navigation, including to our own page and to the program site', async () => {
    const opts = options();
    const page = fakeContents();
    hardenWebContents(page.contents, opts);
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
    expect(opts.openExternal).toHaveBeenCalledTimes(1);
    expect(opts.openExternal).toHaveBeenCalledWith(`${PROGRAM}/opportunities/1`);
  });

  it('prevents redirects and webviews', () => {
    const page = fakeContents();
    hardenWebContents(page.contents, options());
    expect(page.fire('will-redirect', 'https://evil.example/')).toHaveBeenCalled();
    expect(page.fire('will-attach-webview', 'https://evil.example/')).toHaveBeenCalled();
  });

  it('denies every new window and opens only program-site addresses externally', async () => {
    const opts = options();
    const page = fakeContents();
    hardenWebContents(page.contents, opts);
    const urls = [
      `${PROGRAM}/a`,
      'https://www.giving.example.com/b',
      'http://giving.example.com/c',
      'https://evil.example/',
      'https://giving.example.com.evil.example/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'about:blank',
    ];
    for (const url of urls) expect(page.open(url)).toEqual({ action: 'deny' });
    await settle();
    expect(vi.mocked(opts.openExternal).mock.calls.map(([u]) => u)).toEqual([
      `${PROGRAM}/a`,
      'https://www.giving.example.com/b',
    ]);
  });
});

describe('openExternallyIfAllowed', () => {
  it.each([
    ['https on the program domain', `${PROGRAM}/x`, true],
    ['https on a subdomain', 'https://help.giving.example.com/', true],
    ['plain http', 'http://giving.example.com/x', false],
    ['another domain', 'https://example.org/', false],
    ['a look-alike domain', 'https://evilgiving.example.com/', false],
    ['javascript:', 'javascript:alert(1)', false],
    ['file:', 'file:///C:/Windows/system32/calc.exe', false],
    ['credentials in the address', 'https://user:pw@giving.example.com/', false],
    ['not an address', 'not a url', false],
  ])('%s → %s', async (_name, url, allowed) => {
    const opts = options();
    expect(await openExternallyIfAllowed(url, opts)).toBe(allowed);
    expect(opts.openExternal).toHaveBeenCalledTimes(allowed ? 1 : 0);
  });

  it('opens nothing when no program site is configured', async () => {
    const opts = options({ programUrl: async () => null });
    expect(await openExternallyIfAllowed(`${PROGRAM}/x`, opts)).toBe(false);
    expect(opts.openExternal).not.toHaveBeenCalled();
  });

  it('never throws, even when the system cannot open the address', async () => {
    const opts = options({ openExternal: vi.fn(async () => Promise.reject(new Error('no browser'))) });
    await expect(openExternallyIfAllowed(`${PROGRAM}/x`, opts)).resolves.toBe(false);
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
