import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, expectFailure, makeRows, openDesk, startEmu, type Desk, type Emu } from './harness';
import type { EventPayload } from '../../../shared/contract';

/*
 * The service's scheduled maintenance against the emulator: following holds (no request storm, no
 * failure counted, no back-off for hours) and goes on when the service is back.
 */

let h: Emu;
let desk: Desk | null = null;
let nextRow = 1;
beforeAll(async () => {
  // A frozen clock: the bulk moves only when the test advances it.
  h = await startEmu(0);
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await desk?.desk.close();
  desk = null;
  await h.faults({ reset: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A desk whose requests to the service are counted. */
async function countingDesk(): Promise<{ desk: Desk; requests: () => number; holds: Array<string | null> }> {
  let requests = 0;
  const fetchImpl: typeof fetch = (input, init) => {
    requests++;
    return fetch(input, init);
  };
  const d = await openDesk(h, { fetchImpl });
  const holds: Array<string | null> = [];
  d.desk.events.subscribe((name, payload) => {
    if (name === 'service.maintenance') holds.push((payload as EventPayload<'service.maintenance'>).until);
  });
  return { desk: d, requests: () => requests, holds };
}

async function sentIntent(d: Desk): Promise<string> {
  const made = makeRows(h.recipients, 3, nextRow);
  nextRow += 3;
  const started = await d.call('upload.start', { workspaceId: await createWorkspace(d, made) });
  const intent = started.upload.intents[0]!;
  expect(intent.state).toBe('UPLOADED');
  return intent.intentId;
}

/** Moves the service's clock on until the intent is PROCESSED, within a few real seconds. */
async function processedSoon(d: Desk, intentId: string): Promise<number> {
  const began = Date.now();
  for (let i = 0; i < 100; i++) {
    await h.emu.advance(600);
    await sleep(100);
    const view = await d.call('upload.get', { intentId });
    if (view.state === 'PROCESSED') return Date.now() - began;
  }
  throw new Error('never processed');
}

describe('following during the service’s scheduled maintenance', () => {
  it('holds while maintenance is on, without a request storm or a failure, and resumes when it ends', async () => {
    const { desk: d, requests, holds } = await countingDesk();
    desk = d;
    const intentId = await sentIntent(d);
    await h.faults({ maintenance: 'on' });
    // Asked now, the answer says so in words, with the end in Mountain Time and the person's time.
    const refused = await expectFailure(d.call('upload.refresh', { intentId }));
    expect(refused.code).toBe('MAINTENANCE');
    expect(refused.message).toMatch(
      /^The giving service is in scheduled maintenance until 24:00 Mountain Time \(.+ your time\)\.$/,
    );
    expect((await d.call('calendar.get', {})).maintenance?.until).toBeTruthy();
    expect(holds.at(-1)).toBeTruthy();
    // Two seconds of a 50–200 ms poll: held, about one look per 200 ms, never a retry storm.
    const before = requests();
    await sleep(2_000);
    expect(requests() - before).toBeLessThanOrEqual(14);
    expect((await d.call('upload.get', { intentId })).state).toBe('UPLOADED');
    await h.faults({ maintenance: 'off' });
    // Back at once: no back-off grown to hours (the poll's longest delay is 200 ms here).
    expect(await processedSoon(d, intentId)).toBeLessThan(8_000);
    expect(holds.at(-1)).toBeNull();
    expect((await d.call('calendar.get', {})).maintenance).toBeNull();
  }, 30_000);

  it('holds in a scheduled window (the service’s clock moved into it) and resumes after it', async () => {
    const { desk: d, requests } = await countingDesk();
    desk = d;
    const intentId = await sentIntent(d);
    const faults = (await h.control('faults', { maintenance: 'scheduled' })) as {
      nextScheduledMaintenance: { start: string; end: string };
    };
    const start = Date.parse(faults.nextScheduledMaintenance.start);
    const end = Date.parse(faults.nextScheduledMaintenance.end);
    await h.emu.advance((start - h.emu.now().getTime()) / 1000 + 60);
    const refused = await expectFailure(d.call('upload.refresh', { intentId }));
    expect(refused.code).toBe('MAINTENANCE');
    const before = requests();
    await sleep(1_500);
    expect(requests() - before).toBeLessThanOrEqual(11);
    expect((await d.call('upload.get', { intentId })).state).toBe('UPLOADED');
    // The window ends: the next look finds the service back and following goes on.
    await h.emu.advance((end - h.emu.now().getTime()) / 1000 + 1);
    expect(await processedSoon(d, intentId)).toBeLessThan(8_000);
  }, 30_000);

  it('keeps an upload started during maintenance and sends it when the service is back', async () => {
    const { desk: d } = await countingDesk();
    desk = d;
    await h.faults({ maintenance: 'on' });
    const made = makeRows(h.recipients, 2, nextRow);
    nextRow += 2;
    const started = await d.call('upload.start', { workspaceId: await createWorkspace(d, made) });
    expect(started.problems.join(' ')).toContain('scheduled maintenance');
    await sleep(1_000);
    expect((await d.call('upload.list', {})).find((u) => u.uploadId === started.uploadId)?.state).toBe(
      'sending',
    );
    await h.faults({ maintenance: 'off' });
    let state = '';
    for (let i = 0; i < 50 && state !== 'following'; i++) {
      await sleep(100);
      state = (await d.call('upload.list', {})).find((u) => u.uploadId === started.uploadId)?.state ?? '';
    }
    expect(state).toBe('following');
  }, 30_000);
});
