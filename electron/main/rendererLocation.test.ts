import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appLocations, isOwnRendererUrl } from './rendererLocation';

const mainDir = join('/opt', 'Donation Desk', 'resources', 'app.asar', 'out', 'main');

describe('appLocations', () => {
  it('finds the preload and the page beside the main bundle', () => {
    const at = appLocations(mainDir, true, {});
    expect(at.preload).toBe(join(mainDir, '..', 'preload', 'index.cjs'));
    expect(at.rendererFile).toBe(join(mainDir, '..', 'renderer', 'index.html'));
    expect(at.devServerUrl).toBeNull();
  });

  it('uses a loopback dev server only when not packaged', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
    expect(appLocations(mainDir, false, env).devServerUrl).toBe('http://localhost:5173/');
    expect(appLocations(mainDir, true, env).devServerUrl).toBeNull();
    expect(
      appLocations(mainDir, false, { ELECTRON_RENDERER_URL: 'https://evil.example' }).devServerUrl,
    ).toBeNull();
  });
});

describe('isOwnRendererUrl', () => {
  const packaged = appLocations(mainDir, true, {});
  const page = pathToFileURL(packaged.rendererFile).href;

  it('accepts the built page with any hash route', () => {
    expect(isOwnRendererUrl(page, packaged)).toBe(true);
    expect(isOwnRendererUrl(`${page}#/uploads/42`, packaged)).toBe(true);
  });

  it.each([
    'https://evil.example/',
    'file:///etc/passwd',
    'about:blank',
    'http://localhost:5173/',
    'devtools://devtools/bundled/inspector.html',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isOwnRendererUrl(url, packaged)).toBe(false);
  });

  it('accepts only the dev server origin in development', () => {
    const dev = appLocations(mainDir, false, { ELECTRON_RENDERER_URL: 'http://localhost:5173' });
    expect(isOwnRendererUrl('http://localhost:5173/#/prepare', dev)).toBe(true);
    expect(isOwnRendererUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isOwnRendererUrl(page, dev)).toBe(false);
  });
});
