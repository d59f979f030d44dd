import { request } from 'node:http';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk, type DeskRuntime } from '../services';
import { ByteBudget, startBridge, SECRET_HEADER, type RunningBridge } from './server';

// A bridge whose limits are lowered so that hostile sizes are cheap to send: 4 KB per body, 6 KB
// held across every call in flight.
let runtime: DeskRuntime;
let bridge: RunningBridge;
const unexpected: unknown[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'desk-bridge-limits-'));
  await mkdir(join(dir, 'renderer'));
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Donation Desk</title>');
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
  bridge = await startBridge({
    services: runtime.services,
    events: runtime.events,
    rendererDir: join(dir, 'renderer'),
    limits: { bodyBytes: 4096, bufferedBytes: 6144 },
    onUnexpected: (_channel, error) => unexpected.push(error),
  });
});

afterAll(async () => {
  await bridge.close();
  await runtime.close();
});

/** A call whose body is sent in two steps: the first `head` bytes now, the rest when `finish` is called. */
function slowCall(declared: number, head: number) {
  const finishers: (() => void)[] = [];
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: bridge.port,
        method: 'POST',
        path: '/api/call/settings.get',
        headers: {
          host: `127.0.0.1:${bridge.port}`,
          'content-type': 'application/json',
          'content-length': String(declared),
          [SECRET_HEADER]: bridge.secret,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (piece: string) => (body += piece));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    const text = '{}'.padEnd(declared, ' ');
    req.write(text.slice(0, head));
    finishers.push(() => req.end(text.slice(head)));
  });
  return { answer, finish: () => finishers.forEach((f) => f()) };
}

const post = (size: number) =>
  fetch(`http://127.0.0.1:${bridge.port}/api/call/settings.get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SECRET_HEADER]: bridge.secret },
    body: '{}'.padEnd(size, ' '),
  });

describe('bridge limits', () => {
  it('answers 413 for one body over the limit, before reading it', async () => {
    const res = await post(5000);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('TOO_LARGE');
  });

  it('answers 503 while other calls in flight hold the budget, and takes calls again afterwards', async () => {
    const first = slowCall(4000, 10);
    // Give the bridge time to take the first call's declared size from the budget.
    await new Promise((r) => setTimeout(r, 100));
    const second = await post(3000);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(((await second.json()) as { error: { message: string } }).error.message).toMatch(/busy/);
    // A small call still fits beside the first.
    expect((await post(1000)).status).toBe(200);
    first.finish();
    expect((await first.answer).status).toBe(200);
    // The first call's bytes were given back: the same large call now goes through.
    expect((await post(3000)).status).toBe(200);
  });

  it('answers 400 for a path with a broken percent escape, without treating it as a failure', async () => {
    for (const path of ['/a%ZZ', '/%', '/prepare%E0%A4%A']) {
      const res = await fetch(`http://127.0.0.1:${bridge.port}${path}`);
      expect(res.status).toBe(400);
    }
    expect(unexpected).toEqual([]);
  });
});

describe('ByteBudget', () => {
  it('holds at most its limit and never goes below zero', () => {
    const budget = new ByteBudget(10);
    expect(budget.take(6)).toBe(true);
    expect(budget.take(5)).toBe(false);
    expect(budget.take(4)).toBe(true);
    budget.give(10);
    budget.give(3);
    expect(budget.inUse).toBe(0);
  });
});
