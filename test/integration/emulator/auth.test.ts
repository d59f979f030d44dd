import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, getToken, startHarness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.emu.close();
});

async function tokenRequest(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(h.emu.tokenUrl, { method: 'POST', headers, body });
}

describe('token endpoint', () => {
  it('issues a signed JWT for form credentials with a 3600 s lifetime', async () => {
    const res = await tokenRequest(
      'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(3600);
    const [header, payload, signature] = body.access_token.split('.');
    expect(signature).toBeTruthy();
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({
      alg: 'HS256',
      typ: 'JWT',
    });
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as {
      exp: number;
      iat: number;
      sub: string;
    };
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.sub).toBe('demo-client');
  });

  it('accepts HTTP Basic credentials', async () => {
    const res = await tokenRequest('grant_type=client_credentials', {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
    });
    expect(res.status).toBe(200);
  });

  it('refuses a JSON body, a wrong grant type and bad credentials', async () => {
    const json = await tokenRequest(
      JSON.stringify({
        grant_type: 'client_credentials',
        client_id: 'demo-client',
        client_secret: 'demo-secret',
      }),
      { 'content-type': 'application/json' },
    );
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    const grant = await tokenRequest('grant_type=password&client_id=demo-client&client_secret=demo-secret', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(grant.status).toBe(400);
    const bad = await tokenRequest('grant_type=client_credentials&client_id=demo-client&client_secret=nope', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: string }).error).toBe('invalid_client');
  });
});

describe('bearer authorisation', () => {
  it('answers 401 with a JSON:API error when the token is missing, malformed or tampered', async () => {
    const missing = await fetch(`${h.emu.apiBaseUrl}/payments/ping`);
    expect(missing.status).toBe(401);
    const body = (await missing.json()) as { errors: Array<{ status: string; code: string }> };
    expect(body.errors[0]).toMatchObject({ status: '401', code: 'UNAUTHORIZED' });
    const malformed = await h.api('GET', '/payments/ping', undefined, { authorization: 'Bearer nope' });
    expect(malformed.status).toBe(401);
    const [header, payload] = h.token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('forged').toString('base64url')}`;
    const tampered = await h.api('GET', '/payments/ping', undefined, { authorization: `Bearer ${forged}` });
    expect(tampered.status).toBe(401);
    const ok = await h.api('GET', '/payments/ping');
    expect(ok.status).toBe(200);
  });

  it('expires tokens after 3600 s of virtual time', async () => {
    const token = await getToken(h.emu);
    const call = (): Promise<Response> =>
      fetch(`${h.emu.apiBaseUrl}/payments/ping`, { headers: { authorization: `Bearer ${token}` } });
    await h.emu.advance(3599);
    expect((await call()).status).toBe(200);
    await h.emu.advance(2);
    const expired = await call();
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { errors: Array<{ detail: string }> }).errors[0]?.detail).toMatch(
      /expired/,
    );
    h.token = await getToken(h.emu);
  });

  it('revokes every token issued so far on request', async () => {
    expect((await h.api('GET', '/payments/ping')).status).toBe(200);
    expect((await h.control('faults', { revokeTokens: true })).status).toBe(200);
    const revoked = await h.api('GET', '/payments/ping');
    expect(revoked.status).toBe(401);
    expect(revoked.body.errors[0].detail).toMatch(/revoked/);
    h.token = await getToken(h.emu);
    expect((await h.api('GET', '/payments/ping')).status).toBe(200);
  });

  it('leaves program pages and controls without a token', async () => {
    expect((await fetch(`${h.emu.apiBaseUrl}/_emulator/clock`)).status).toBe(200);
    expect((await fetch(`${h.emu.programUrl}/images/opportunities/999.svg`)).status).toBe(404);
  });
});
