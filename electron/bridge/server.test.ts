import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk, type DeskRuntime } from '../services';
import { startBridge, SECRET_HEADER, type RunningBridge } from './server';
import { CALL_WITH_BYTES_TYPE, encodeCallWithBytes } from '../../shared/contract/callBody';
import { packedRowsInput } from '../../shared/contract/packedRows';

let runtime: DeskRuntime;
let bridge: RunningBridge;
let base: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'desk-bridge-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(rendererDir);
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Donation Desk</title>');
  runtime = await startDesk(
    {
      mode: 'browser',
      dataDir: join(dir, 'data'),
      appVersion: '9.9.9',
      assetsDir: dir,
      secretBox: null,
      openExternal: async () => undefined,
      env: {},
    },
    { startOffline: () => Promise.reject(new Error('not used')) },
  );
  await writeFile(join(dir, 'icon.ico'), Buffer.from([0, 0, 1, 0, 1, 0]));
  bridge = await startBridge({
    services: runtime.services,
    events: runtime.events,
    rendererDir,
    iconFile: join(dir, 'icon.ico'),
  });
  base = `http://127.0.0.1:${bridge.port}`;
});

afterAll(async () => {
  await bridge.close();
  await runtime.close();
});

const call = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/call/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('local bridge', () => {
  it('answers /favicon.ico with the app icon instead of a 404', async () => {
    const res = await fetch(`${base}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0, 0, 1, 0, 1, 0]);
  });

  it('prints an address on 127.0.0.1 that carries the secret in the fragment', () => {
    expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#secret=[A-Za-z0-9_-]{40,}$/);
    expect(bridge.url).toContain(bridge.secret);
  });

  it('answers a call that carries the secret', async () => {
    const res = await call('settings.get', {}, { [SECRET_HEADER]: bridge.secret });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; value: { environment: string } };
    expect(body.ok).toBe(true);
    expect(body.value.environment).toBe('offline');
  });

  it('refuses a call without the secret, or with a wrong one', async () => {
    expect((await call('settings.get', {})).status).toBe(401);
    const wrong = bridge.secret.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await call('settings.get', {}, { [SECRET_HEADER]: wrong })).status).toBe(401);
  });

  it('refuses a call from another origin even with the secret', async () => {
    const res = await call(
      'settings.get',
      {},
      { [SECRET_HEADER]: bridge.secret, origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    const crossSite = await call(
      'settings.get',
      {},
      { [SECRET_HEADER]: bridge.secret, 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
  });

  it('accepts its own origin', async () => {
    const res = await call('settings.get', {}, { [SECRET_HEADER]: bridge.secret, origin: base });
    expect(res.status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: bridge.port,
          path: '/',
          headers: { host: `attacker.example:${bridge.port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it('reads a body sent in pieces, with a Content-Length or without one (chunked)', async () => {
    const { request } = await import('node:http');
    const body = JSON.stringify({ environment: 'moon' });
    const post = (headers: Record<string, string | number>) =>
      new Promise<{ status: number; code: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: bridge.port,
            method: 'POST',
            path: '/api/call/settings.save',
            headers: { 'content-type': 'application/json', [SECRET_HEADER]: bridge.secret, ...headers },
          },
          (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => {
              const answer = JSON.parse(text) as { error: { code: string } };
              resolve({ status: res.statusCode ?? 0, code: answer.error.code });
            });
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 7));
        setTimeout(() => req.end(body.slice(7)), 20);
      });
    // Both are read whole and refused for the environment they name (400, the channel's schema):
    // the body arrived whole.
    expect(await post({ 'content-length': Buffer.byteLength(body) })).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
    });
    expect(await post({ 'transfer-encoding': 'chunked' })).toEqual({ status: 400, code: 'INVALID_INPUT' });
  });

  it('returns invalid input as an error value with a code and a plain message', async () => {
    const res = await call('settings.save', { environment: 'moon' }, { [SECRET_HEADER]: bridge.secret });
    const body = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('INVALID_INPUT');
    expect(body.error.message).toMatch(/^Environment: /);
  });

  it('takes a call with byte attachments (a new workspace packed) and refuses a broken one', async () => {
    const parts = encodeCallWithBytes({
      name: 'Packed',
      source: { fileName: 'f.xlsx', format: 'xlsx', sheet: 'S', headerRow: 1 },
      headers: ['A', 'B'],
      packedRows: packedRowsInput({
        texts: 'Zoë€x',
        lengths: new Uint32Array([3, 1, 1, 0]),
        rowNumbers: new Uint32Array([2, 3]),
        width: 2,
      }),
      mapping: null,
    });
    const send = (body: Blob | Uint8Array) =>
      fetch(`${base}/api/call/workspace.create`, {
        method: 'POST',
        headers: { 'content-type': CALL_WITH_BYTES_TYPE, [SECRET_HEADER]: bridge.secret },
        body,
      });
    const res = await send(new Blob(parts as ConstructorParameters<typeof Blob>[0]));
    const created = (await res.json()) as { ok: boolean; value: { id: string; nextKey: number } };
    expect(created).toMatchObject({ ok: true, value: { nextKey: 2 } });
    const opened = await runtime.services['workspace.open']({ id: created.value.id }, { transport: 'test' });
    expect(opened.rows.map((r) => r.cells)).toEqual([
      ['Zoë', '€'],
      ['x', ''],
    ]);
    expect((await send(new Uint8Array([200, 0, 0, 0, 1]))).status).toBe(400);
  });

  it('serves the built renderer with a strict CSP and falls back to it for app routes', async () => {
    const res = await fetch(`${base}/prepare`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Donation Desk');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await fetch(`${base}/missing.js`)).status).toBe(404);
    expect((await fetch(`${base}/..%2f..%2fetc/passwd`)).status).toBe(404);
  });

  it('streams events to a client with the secret', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/api/events`, {
      headers: { [SECRET_HEADER]: bridge.secret },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    await reader.read(); // the ": connected" comment
    runtime.events.emit('settings.changed', { environment: 'sandbox' });
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"name":"settings.changed"');
    controller.abort();
    expect((await fetch(`${base}/api/events`)).status).toBe(401);
  });

  it('never returns a client secret in any response', async () => {
    const secret = 'top-secret-value-123';
    const saved = await call(
      'settings.save',
      { remote: { id: 'sandbox', clientId: 'abc', clientSecret: secret } },
      { [SECRET_HEADER]: bridge.secret },
    );
    const text = await saved.text();
    expect(text).not.toContain(secret);
    expect(JSON.parse(text).value.remotes.sandbox.hasClientSecret).toBe(true);
    const got = await (await call('settings.get', {}, { [SECRET_HEADER]: bridge.secret })).text();
    expect(got).not.toContain(secret);
  });
});
