import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, bulkFile, createIntent, donation, startHarness, upload } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.emu.close();
});
beforeEach(async () => {
  await h.control('faults', { reset: true });
});

async function statuses(count: number): Promise<Array<number | 'dropped'>> {
  const out: Array<number | 'dropped'> = [];
  for (let i = 0; i < count; i++) {
    try {
      out.push((await h.api('GET', '/payments/ping')).status);
    } catch {
      out.push('dropped');
    }
  }
  return out;
}

describe('fault injection', () => {
  it('injects 500, 503 with Retry-After and 429 at the configured rates, repeatably under a seed', async () => {
    const settings = {
      seed: 1234,
      error500Rate: 0.2,
      error503Rate: 0.2,
      error429Rate: 0.2,
      retryAfterSeconds: 7,
    };
    await h.control('faults', settings);
    const first = await statuses(200);
    await h.control('faults', settings);
    const second = await statuses(200);
    expect(second).toEqual(first);
    const count = (s: number): number => first.filter((x) => x === s).length;
    for (const s of [500, 503, 429]) {
      expect(count(s)).toBeGreaterThan(20);
      expect(count(s)).toBeLessThan(65);
    }
    expect(count(200)).toBeGreaterThan(55);
    await h.control('faults', { seed: 1, error503Rate: 1, retryAfterSeconds: 7 });
    const res = await h.api('GET', '/payments/ping');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body.errors[0]).toMatchObject({ status: '503', code: 'SERVICE_UNAVAILABLE' });
    await h.control('faults', { error503Rate: 0, error429Rate: 1 });
    const limited = await h.api('GET', '/payments/ping');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
  });

  it('applies to the token endpoint too, but never to the controls', async () => {
    await h.control('faults', { error500Rate: 1 });
    const token = await fetch(h.emu.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
    });
    expect(token.status).toBe(500);
    expect((await h.control('clock')).status).toBe(200);
  });

  it('applies to the upload host as well (object-store style XML errors)', async () => {
    const intent = await createIntent(h);
    await h.control('faults', { error500Rate: 1 });
    const failed = await upload(intent, bulkFile([donation('840-123456789')]));
    expect(failed.status).toBe(500);
    expect(failed.text).toMatch(/<Code>InternalError<\/Code>/);
    await h.control('faults', { error500Rate: 0, dropRate: 1 });
    await expect(upload(intent, bulkFile([donation('840-123456789')]))).rejects.toThrow();
    await h.control('faults', { dropRate: 0 });
    expect((await upload(intent, bulkFile([donation('840-123456789')]))).status).toBe(204);
  });

  it('drops connections', async () => {
    await h.control('faults', { dropRate: 1 });
    await expect(h.api('GET', '/payments/ping')).rejects.toThrow();
    await h.control('faults', { dropRate: 0 });
    expect((await h.api('GET', '/payments/ping')).status).toBe(200);
  });

  it('adds latency', async () => {
    await h.control('faults', { latencyMs: 300 });
    const started = Date.now();
    expect((await h.api('GET', '/payments/ping')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers 503 during the documented Saturday window, 18:00 to 24:00 Mountain Time, on both hosts', async () => {
    const faults = (await h.control('faults', { maintenance: 'scheduled' })).body;
    const window = faults.nextScheduledMaintenance as { start: string; end: string };
    const start = Date.parse(window.start);
    const end = Date.parse(window.end);
    const mountain = (ms: number) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/Denver',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .format(new Date(ms))
        .replace(',', '');
    expect(mountain(start)).toBe('Sat 18:00');
    // Midnight at the end of that Saturday: the whole six hours (five when the clocks go back… never
    // on a window's Saturday night, the change is on a Sunday at 02:00).
    expect(mountain(end)).toBe('Sun 00:00');
    expect(end - start).toBe(6 * 3600_000);
    const intent = await createIntent(h);
    await h.emu.advance((start - h.emu.now().getTime()) / 1000 - 60);
    expect((await h.api('GET', '/payments/ping')).status).toBe(200);
    await h.emu.advance(61);
    const down = await h.api('GET', '/payments/ping');
    expect(down.status).toBe(503);
    expect(down.body.errors[0].code).toBe('SCHEDULED_MAINTENANCE');
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(6 * 3600 - 120);
    expect((await upload(intent, bulkFile([donation('840-123456789')]))).status).toBe(503);
    await h.emu.advance(5 * 3600);
    // Before any token or address check: the whole platform is down.
    expect((await fetch(`${h.emu.apiBaseUrl}/payments/ping`)).status).toBe(503);
    await h.emu.advance(3600);
    expect((await h.api('GET', '/payments/ping')).status).toBe(200);
    // About every five weeks: the next window is five Saturdays on.
    const next = (await h.control('faults')).body.nextScheduledMaintenance;
    expect(mountain(Date.parse(next.start))).toBe('Sat 18:00');
    expect(Math.round((Date.parse(next.start) - start) / 86400_000)).toBe(35);
  });

  it('keeps to the announced Saturdays when they are given, and refuses a date that is not one', async () => {
    const saturday = new Date(h.emu.now().getTime() + 14 * 86400_000);
    saturday.setUTCDate(saturday.getUTCDate() + ((6 - saturday.getUTCDay() + 7) % 7));
    const date = saturday.toISOString().slice(0, 10);
    const faults = (await h.control('faults', { maintenance: 'scheduled', maintenanceDates: [date] })).body;
    expect(faults.maintenanceDates).toEqual([date]);
    const start = Date.parse(faults.nextScheduledMaintenance.start);
    expect(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Denver' }).format(new Date(start))).toBe(
      date,
    );
    const sunday = new Date(saturday.getTime() + 86400_000).toISOString().slice(0, 10);
    expect((await h.control('faults', { maintenanceDates: [sunday] })).status).toBe(400);
  });

  it('forces maintenance on demand, until 24:00 Mountain Time', async () => {
    await h.control('faults', { maintenance: 'on' });
    const down = await fetch(`${h.emu.apiBaseUrl}/payments/ping`);
    expect(down.status).toBe(503);
    const end = h.emu.now().getTime() + Number(down.headers.get('retry-after')) * 1000;
    const mountain = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Denver',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(end));
    expect(mountain).toMatch(/^(00:00|00:01|24:00)$/);
    await h.control('faults', { maintenance: 'off' });
    expect((await h.api('GET', '/payments/ping')).status).toBe(200);
  });

  it('rejects unknown or out-of-range fault settings', async () => {
    expect((await h.control('faults', { error500Rate: 2 })).status).toBe(400);
    expect((await h.control('faults', { explode: true })).status).toBe(400);
    expect((await h.control('clock', { advanceSeconds: -5 })).status).toBe(400);
  });
});

describe('clock and reset controls', () => {
  it('reads and advances the virtual clock', async () => {
    const before = (await h.control('clock')).body.now as string;
    const after = await h.control('clock', { advanceSeconds: 90 });
    expect(after.status).toBe(200);
    expect(Date.parse(after.body.now) - Date.parse(before)).toBe(90_000);
    expect(h.emu.now().toISOString()).toBe(after.body.now);
  });

  it('reset empties donations, bulks and locations but keeps the clock and tokens', async () => {
    const created = await h.api('POST', '/donations', { data: donation('840-123456789') });
    expect(created.status).toBe(201);
    await h.control('faults', { error500Rate: 0.5 });
    const now = h.emu.now().getTime();
    expect((await h.control('reset', {})).status).toBe(200);
    expect((await h.api('GET', `/donations/${created.body.data.id}`)).status).toBe(404);
    expect((await h.api('GET', '/donations')).body.meta.count).toBe(0);
    expect((await h.control('faults')).body.error500Rate).toBe(0);
    expect(h.emu.now().getTime()).toBe(now);
  });
});
