import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkDonations,
  createWorkspace,
  driveToEnd,
  makeRows,
  openDesk,
  startEmu,
  type Desk,
  type Emu,
} from './harness';
import { tamper } from './tamper';
import type { UploadView } from '../../../shared/contract/uploadChannels';

let h: Emu;
let desk: Desk | null = null;
let nextRow = 1;
beforeAll(async () => {
  h = await startEmu();
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await desk?.desk.close();
  desk = null;
  await h.faults({ reset: true });
});

function rows(count: number): ReturnType<typeof makeRows> {
  const made = makeRows(h.recipients, count, nextRow);
  nextRow += count;
  return made;
}

/** Uploads, drives every part to the end, and checks every row has exactly one donation across all intents. */
async function uploadAndCheck(d: Desk, count: number): Promise<UploadView> {
  const made = rows(count);
  const id = await createWorkspace(d, made);
  const started = await d.call('upload.start', { workspaceId: id });
  // Parts that could not be sent yet are retried in the background; wait for all of them to be at the service.
  for (let i = 0; i < 200; i++) {
    const view = (await d.call('upload.list', {})).find((u) => u.uploadId === started.uploadId);
    if (view && view.state !== 'sending') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const upload = (await d.call('upload.list', {})).find((u) => u.uploadId === started.uploadId);
  const live = upload?.intents.filter((i) => i.state !== 'abandoned') ?? [];
  for (const intent of live) expect((await driveToEnd(h, d, intent.intentId, 40)).state).toBe('PROCESSED');
  // The check itself reads the emulator with the faults off.
  await h.faults({ error500Rate: 0, error503Rate: 0, error429Rate: 0, dropRate: 0, latencyMs: 0 });
  const refs = new Map<string, number>();
  for (const intent of upload?.intents ?? []) {
    if (!intent.serviceId) continue;
    for (const donation of await bulkDonations(h.emu, intent.serviceId)) {
      const ref = donation.attributes.metadata?.ddRef ?? '?';
      refs.set(ref, (refs.get(ref) ?? 0) + 1);
    }
  }
  expect(refs.size).toBe(count);
  expect([...refs.values()].every((n) => n === 1)).toBe(true);
  return (await d.call('upload.list', {})).find((u) => u.uploadId === started.uploadId) as UploadView;
}

describe('upload under faults', () => {
  it('gets through 5xx, 429 (Retry-After), dropped connections and latency without sending anything twice', async () => {
    const faults = {
      error500Rate: 0.1,
      error503Rate: 0.1,
      error429Rate: 0.1,
      dropRate: 0.1,
      retryAfterSeconds: 0,
      latencyMs: 20,
    };
    desk = await openDesk(h);
    await h.faults({ ...faults, seed: 7 });
    await uploadAndCheck(desk, 25);
    await h.faults({ ...faults, seed: 8 });
    await uploadAndCheck(desk, 25);
  }, 60_000);

  it('gets a fresh token when the token is revoked mid-upload', async () => {
    let revoked = false;
    const t = tamper({
      uploadHost: h.emu.uploadBaseUrl,
      before: async (url, method) => {
        if (!revoked && method === 'POST' && url.startsWith(h.emu.uploadBaseUrl)) {
          revoked = true;
          await h.faults({ revokeTokens: true });
        }
      },
    });
    desk = await openDesk(h, { fetchImpl: t.fetch });
    await uploadAndCheck(desk, 10);
    expect(revoked).toBe(true);
  });

  it('replaces an intent whose upload address expired (403) with a new one', async () => {
    let expired = false;
    const t = tamper({
      uploadHost: h.emu.uploadBaseUrl,
      before: async (url, method) => {
        if (!expired && method === 'POST' && url.startsWith(h.emu.uploadBaseUrl)) {
          expired = true;
          await h.emu.advance(3700);
        }
      },
    });
    desk = await openDesk(h, { fetchImpl: t.fetch });
    const upload = await uploadAndCheck(desk, 10);
    expect(upload.intents.map((i) => i.state)).toEqual(['abandoned', 'PROCESSED']);
    expect(upload.intents[0]?.timeline.at(-1)?.note).toMatch(/expired|403/);
  });

  it('splits a large upload into several intents shown as one upload', async () => {
    desk = await openDesk(h, { env: { DONATION_DESK_MAX_ROWS_PER_FILE: '10' } });
    const upload = await uploadAndCheck(desk, 25);
    expect(upload.intents.map((i) => i.part)).toEqual([0, 1, 2]);
    expect(upload.intents[0]?.parts).toBe(3);
  });

  it('stops (instead of creating intents forever) when fresh upload addresses keep being refused', async () => {
    await h.faults({ expireUploadUrls: true });
    desk = await openDesk(h);
    const id = await createWorkspace(desk, rows(4));
    const started = await desk.call('upload.start', { workspaceId: id });
    expect(started.upload.state).toBe('stopped');
    expect(started.upload.intents.map((i) => i.state)).toEqual(['abandoned', 'abandoned', 'abandoned']);
    expect(started.problems[0]).toMatch(/refused/);
    // Nothing went out, so the guard does not stand in the way of trying again.
    await h.faults({ expireUploadUrls: false });
    const again = await desk.call('upload.start', { workspaceId: id });
    expect(again.upload.intents.at(-1)?.state).toBe('UPLOADED');
  });
});
