import { describe, expect, it, vi } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import { TokenClient } from './tokenClient';

const config = {
  tokenUrl: 'https://auth.example.org/oauth2/token',
  clientId: 'id-1',
  clientSecret: 's3cret!',
};

function tokenResponse(token: string, expiresIn = 3600) {
  return new Response(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: expiresIn }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

describe('TokenClient', () => {
  it('asks with a form body and reuses the token until shortly before it expires', async () => {
    let now = 1_000_000;
    const fetchImpl = vi.fn(async () => tokenResponse(`t${fetchImpl.mock.calls.length}`));
    const client = new TokenClient(config, fetchImpl as unknown as typeof fetch, () => now);
    expect(await client.accessToken()).toBe('t1');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(config.tokenUrl);
    expect((init.headers as Record<string, string>)['content-type']).toBe(
      'application/x-www-form-urlencoded',
    );
    const form = new URLSearchParams(String(init.body));
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('client_id')).toBe('id-1');
    expect(form.get('client_secret')).toBe('s3cret!');

    now += 3000 * 1000;
    expect(await client.accessToken()).toBe('t1');
    now += 550 * 1000; // within a minute of expiry
    expect(await client.accessToken()).toBe('t2');
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('shares one request between concurrent callers', async () => {
    const fetchImpl = vi.fn(async () => tokenResponse('once'));
    const client = new TokenClient(config, fetchImpl as unknown as typeof fetch);
    const tokens = await Promise.all([client.accessToken(), client.accessToken(), client.accessToken()]);
    expect(tokens).toEqual(['once', 'once', 'once']);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('fetches a new token after invalidate()', async () => {
    const fetchImpl = vi.fn(async () => tokenResponse(`t${fetchImpl.mock.calls.length}`));
    const client = new TokenClient(config, fetchImpl as unknown as typeof fetch);
    await client.accessToken();
    client.invalidate();
    expect(await client.accessToken()).toBe('t2');
  });

  it('reports refused credentials plainly and without the secret', async () => {
    const client = new TokenClient(
      config,
      (async () => new Response('{"error":"invalid_client"}', { status: 401 })) as typeof fetch,
    );
    const error = await client.accessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskFailure);
    expect((error as DeskFailure).code).toBe('AUTH_FAILED');
    expect((error as DeskFailure).message).not.toContain('s3cret!');
  });

  it('reports an unreachable address and a non-token answer as distinct errors', async () => {
    const down = new TokenClient(config, (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    expect(await down.accessToken().catch((e: DeskFailure) => e.code)).toBe('NETWORK');
    const html = new TokenClient(
      config,
      (async () => new Response('<html>', { status: 200 })) as typeof fetch,
    );
    expect(await html.accessToken().catch((e: DeskFailure) => e.code)).toBe('BAD_RESPONSE');
    const down503 = new TokenClient(config, (async () => new Response('', { status: 503 })) as typeof fetch);
    expect(await down503.accessToken().catch((e: DeskFailure) => e.code)).toBe('SERVICE_UNAVAILABLE');
  });
});
