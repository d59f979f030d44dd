import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkDonations,
  createWorkspace,
  driveToEnd,
  expectFailure,
  makeRows,
  openDesk,
  startEmu,
  type Desk,
  type Emu,
} from './harness';

let h: Emu;
let desk: Desk | null = null;
beforeAll(async () => {
  h = await startEmu();
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await desk?.desk.close();
  desk = null;
});

describe('upload happy path', () => {
  it('uploads a workspace, follows it to PROCESSED, and refuses to send the same rows again', async () => {
    desk = await openDesk(h);
    const id = await createWorkspace(desk, makeRows(h.recipients, 30));
    const preview = await desk.call('upload.preview', { workspaceId: id });
    expect(preview).toMatchObject({ rows: 30, valid: 30, invalid: 0, duplicates: [], parts: 1 });
    const started = await desk.call('upload.start', { workspaceId: id });
    expect(started.problems).toEqual([]);
    const intent = started.upload.intents.find((i) => i.state !== 'abandoned');
    expect(intent?.state).toBe('UPLOADED');
    const end = await driveToEnd(h, desk, intent?.intentId as string);
    expect(end.state).toBe('PROCESSED');
    const states = end.timeline.map((t) => t.state);
    expect(states.slice(0, 4)).toEqual(['creating', 'pending', 'uploading', 'UPLOADED']);
    expect(states.at(-1)).toBe('PROCESSED');
    const donations = await bulkDonations(h.emu, intent?.serviceId as string);
    expect(donations).toHaveLength(30);

    const again = await desk.call('upload.preview', { workspaceId: id });
    expect(again.duplicates).toHaveLength(30);
    const refused = await expectFailure(desk.call('upload.start', { workspaceId: id }));
    expect(refused.code).toBe('DUPLICATES');
  });
});
