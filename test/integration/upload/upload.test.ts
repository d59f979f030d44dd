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

describe('what may be sent', () => {
  it('refuses rows with errors unless they are skipped, and sends only the valid ones', async () => {
    desk = await openDesk(h);
    const rows = makeRows(h.recipients, 6, 500);
    (rows[2] as { cells: string[] }).cells[1] = 'twelve';
    const id = await createWorkspace(desk, rows);
    const preview = await desk.call('upload.preview', { workspaceId: id });
    expect(preview).toMatchObject({ rows: 6, valid: 5, invalid: 1 });
    const refused = await expectFailure(desk.call('upload.start', { workspaceId: id }));
    expect(refused.code).toBe('INVALID_ROWS');
    expect(refused.details).toEqual({ rowKeys: [502] });
    const started = await desk.call('upload.start', { workspaceId: id, skipInvalid: true });
    expect(started.upload.rows).toBe(5);
  });

  it('sends flagged rows again only when confirmed, row by row', async () => {
    desk = await openDesk(h);
    const rows = makeRows(h.recipients, 4, 600);
    const first = await createWorkspace(desk, rows.slice(0, 2));
    await desk.call('upload.start', { workspaceId: first });
    // A second workspace repeats rows 600 and 601 and adds two new ones.
    const second = await createWorkspace(desk, rows);
    const preview = await desk.call('upload.preview', { workspaceId: second });
    expect(preview.duplicates.map((d) => d.rowKey)).toEqual([600, 601]);
    expect(preview.duplicates[0]?.intentId).toMatch(/[0-9a-f-]{36}/);
    const partly = await expectFailure(
      desk.call('upload.start', { workspaceId: second, confirmDuplicates: [600] }),
    );
    expect(partly.code).toBe('DUPLICATES');
    const started = await desk.call('upload.start', { workspaceId: second, confirmDuplicates: [600, 601] });
    expect(started.upload.rows).toBe(4);
  });

  it('reports progress by stage, every intent change, and a notification when it finishes', async () => {
    const notes: string[] = [];
    desk = await openDesk(h, { notify: (title) => notes.push(title) });
    const stages = new Set<string>();
    const states: string[] = [];
    const jobs: string[] = [];
    desk.desk.events.subscribe((name, payload) => {
      if (name === 'upload.progress') stages.add((payload as { stage: string }).stage);
      if (name === 'intent.updated') states.push((payload as { state: string }).state);
      if (name === 'job.status') jobs.push((payload as { jobId: string; status: string }).status);
    });
    const id = await createWorkspace(desk, makeRows(h.recipients, 5, 700));
    const started = await desk.call('upload.start', { workspaceId: id });
    await driveToEnd(h, desk, started.upload.intents.at(-1)?.intentId as string);
    expect([...stages]).toEqual(
      expect.arrayContaining([
        'validating',
        'building',
        'compressing',
        'creating-intent',
        'uploading',
        'uploaded',
      ]),
    );
    expect(states).toEqual(expect.arrayContaining(['pending', 'uploading', 'UPLOADED', 'PROCESSED']));
    // Earlier tests' uploads, resumed by this desk, may finish here too: each tells once.
    expect(notes.length).toBeGreaterThan(0);
    expect(jobs).toContain('succeeded');
    expect(new Set(notes)).toEqual(new Set(['Upload processed']));
    const list = await desk.call('upload.list', {});
    expect(list[0]).toMatchObject({ state: 'processed', rows: 5, workspaceName: 'Test gifts' });
    expect(list[0]?.totals[0]).toMatchObject({ currencyCode: 'USD', count: 5 });
  });
});
