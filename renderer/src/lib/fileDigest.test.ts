import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileDigest } from './fileDigest';

describe('file digest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('gives the size and the SHA-256 of the bytes in hex', async () => {
    const digest = await fileDigest(new TextEncoder().encode('abc'));
    expect(digest).toEqual({
      fileBytes: 3,
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    });
  });

  it('gives only the size where the page has no Web Crypto', async () => {
    vi.stubGlobal('crypto', undefined);
    expect(await fileDigest(new Uint8Array(5))).toEqual({ fileBytes: 5 });
  });
});
