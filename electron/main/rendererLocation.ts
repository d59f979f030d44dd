import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the preload and the renderer page are, relative to the built main bundle (out/main). */
export interface AppLocations {
  preload: string;
  rendererFile: string;
  /** The electron-vite dev server, only when running unpackaged with `electron-vite dev`. */
  devServerUrl: string | null;
}

function loopbackHttpOrigin(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
    return url.protocol === 'http:' && loopback ? url.href : null;
  } catch {
    return null;
  }
}

export function appLocations(
  mainDir: string,
  isPackaged: boolean,
  env: Record<string, string | undefined>,
): AppLocations {
  return {
    preload: join(mainDir, '..', 'preload', 'index.cjs'),
    rendererFile: join(mainDir, '..', 'renderer', 'index.html'),
    // A packaged app ignores ELECTRON_RENDERER_URL: an environment variable must never be able to
    // point the window (and with it window.desk) at another page.
    devServerUrl: isPackaged ? null : loopbackHttpOrigin(env.ELECTRON_RENDERER_URL),
  };
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  copy.search = '';
  return copy.href;
}

/**
 * True when `raw` is our own renderer page: the built index.html (any hash route) or, in development,
 * any page of the dev server's origin. Used for the IPC sender check and for navigation decisions.
 */
export function isOwnRendererUrl(raw: string, locations: AppLocations, platform = process.platform): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (locations.devServerUrl) {
    return url.origin === new URL(locations.devServerUrl).origin;
  }
  if (url.protocol !== 'file:') return false;
  const expected = withoutFragment(pathToFileURL(locations.rendererFile));
  const actual = withoutFragment(url);
  // Windows paths are case-insensitive and Chromium may report the drive letter in another case.
  return platform === 'win32' ? expected.toLowerCase() === actual.toLowerCase() : expected === actual;
}
