import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MAPPING,
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
  await h.faults({ reset: true });
});

/** Every reference value the emulator holds across the given bulks, counted. */
async function referenceCounts(bulkIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of bulkIds) {
    for (const d of await bulkDonations(h.emu, id)) {
      const ref = d.attributes.metadata?.ddRef ?? '?';
      counts.set(ref, (counts.get(ref) ?? 0) + 1);
    }
  }
  return counts;
}

async function allBulkIds(d: Desk): Promise<string[]> {
  const uploads = await d.call('upload.list', {});
  return uploads.flatMap((u) => u.intents.map((i) => i.serviceId).filter((s): s is string => s !== null));
}

describe('repair', () => {
  it('maps an error file back to rows and cells, and sends the corrected rows as a linked intent', async () => {
    let tampered = false;
    const t = tamper({
      uploadHost: h.emu.uploadBaseUrl,
      onUpload: (file) => {
        if (tampered) return file;
        tampered = true;
        // The service disagrees with the app about two rows: it refuses their currency and their amount.
        (file.data[3]?.attributes.funds as Record<string, unknown>).currencyCode = 'QQQ';
        (file.data[7]?.attributes.funds as Record<string, unknown>).amount = -5;
        return file;
      },
    });
    desk = await openDesk(h, { fetchImpl: t.fetch });
    const rows = makeRows(h.recipients, 12);
    const id = await createWorkspace(desk, rows);
    const started = await desk.call('upload.start', { workspaceId: id });
    const first = started.upload.intents.at(-1);
    const end = await driveToEnd(h, desk, first?.intentId as string);
    expect(end.state).toBe('ERROR');
    expect(end.donations).toBe(0);

    const errors = await desk.call('upload.errors', { intentId: first?.intentId as string });
    expect(errors.form).toBe('donations');
    const byRow = errors.issues.map((i) => ({ row: i.row, column: i.column, field: i.field }));
    expect(byRow).toEqual(
      expect.arrayContaining([
        { row: rows[3]?.rowNumber, column: 'Currency', field: 'funds.currencyCode' },
        { row: rows[7]?.rowNumber, column: 'Amount', field: 'funds.amount' },
      ]),
    );

    const resent = await desk.call('upload.resend', { intentId: first?.intentId as string });
    expect(resent.upload.corrects).toBe(first?.serviceId);
    expect(resent.upload.rows).toBe(12);
    const second = resent.upload.intents.at(-1);
    expect((await driveToEnd(h, desk, second?.intentId as string)).state).toBe('PROCESSED');
    const failed = await desk.call('upload.get', { intentId: first?.intentId as string });
    expect(failed.correctedByUpload).toBe(resent.uploadId);

    const counts = await referenceCounts(await allBulkIds(desk));
    expect(counts.size).toBe(12);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('re-reads the intent for a fresh error-file address when the first one has lapsed', async () => {
    let lapse = true;
    const t = tamper({
      uploadHost: h.emu.uploadBaseUrl,
      onUpload: () => 'this is not json',
      before: async (url) => {
        if (lapse && url.includes('/error-files/')) {
          lapse = false;
          await h.emu.advance(700);
        }
      },
    });
    desk = await openDesk(h, { fetchImpl: t.fetch });
    const id = await createWorkspace(desk, makeRows(h.recipients, 5, 50));
    const started = await desk.call('upload.start', { workspaceId: id });
    const intentId = started.upload.intents.at(-1)?.intentId as string;
    expect((await driveToEnd(h, desk, intentId)).state).toBe('ERROR');
    const errors = await desk.call('upload.errors', { intentId });
    expect(lapse).toBe(false);
    expect(errors.form).toBe('file');
    expect(errors.issues.length).toBeGreaterThan(0);
    expect(errors.issues[0]?.row).toBeNull();
  });

  it('after a partial extraction sends only the rows without a donation', async () => {
    await h.faults({ partialExtractionFailure: { afterDonations: 8 } });
    desk = await openDesk(h);
    const id = await createWorkspace(desk, makeRows(h.recipients, 20, 100));
    const started = await desk.call('upload.start', { workspaceId: id });
    const intentId = started.upload.intents.at(-1)?.intentId as string;
    const end = await driveToEnd(h, desk, intentId);
    expect(end.state).toBe('ERROR');
    expect(end.donations).toBe(8);
    const errors = await desk.call('upload.errors', { intentId });
    expect(errors.issues).toHaveLength(12);
    expect(errors.issues.every((i) => i.rowKey !== null)).toBe(true);

    await h.faults({ partialExtractionFailure: null });
    const resent = await desk.call('upload.resend', { intentId });
    expect(resent.upload.rows).toBe(12);
    expect((await driveToEnd(h, desk, resent.upload.intents.at(-1)?.intentId as string)).state).toBe(
      'PROCESSED',
    );
    const counts = await referenceCounts([
      end.serviceId as string,
      resent.upload.intents.at(-1)?.serviceId as string,
    ]);
    expect(counts.size).toBe(20);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // A second correction of the same failure is refused: it would send the rows twice.
    await expect(desk.call('upload.resend', { intentId })).rejects.toMatchObject({
      code: 'ALREADY_CORRECTED',
    });
  });
});

describe('repair without the reference pair and across pages', () => {
  it('matches errors to rows by content when the reference pair is switched off', async () => {
    let tampered = false;
    const t = tamper({
      uploadHost: h.emu.uploadBaseUrl,
      onUpload: (file) => {
        if (tampered) return file;
        tampered = true;
        // Not part of the content match (the same on every row), so the row is found by the rest of it.
        (file.data[2]?.attributes.funds as Record<string, unknown>).paymentType = 'CARD';
        // Reordered on the way, so the error's position (/data/3) points at another row: only content can tell.
        file.data.reverse();
        return file;
      },
    });
    desk = await openDesk(h, { fetchImpl: t.fetch });
    const rows = makeRows(h.recipients, 6, 300);
    const id = await createWorkspace(desk, rows, { ...MAPPING, reference: { enabled: false, key: 'ddRef' } });
    const started = await desk.call('upload.start', { workspaceId: id });
    const intentId = started.upload.intents.at(-1)?.intentId as string;
    expect((await driveToEnd(h, desk, intentId)).state).toBe('ERROR');
    const errors = await desk.call('upload.errors', { intentId });
    expect(errors.issues.map((i) => i.rowKey)).toEqual([rows[2]?.key]);
    expect(errors.issues[0]?.field).toBe('funds.paymentType');
  });

  it('lists every page of a large bulk’s donations after a partial extraction', async () => {
    await h.faults({ partialExtractionFailure: { afterDonations: 520 } });
    desk = await openDesk(h);
    const id = await createWorkspace(desk, makeRows(h.recipients, 600, 1000));
    const started = await desk.call('upload.start', { workspaceId: id });
    const intentId = started.upload.intents.at(-1)?.intentId as string;
    const end = await driveToEnd(h, desk, intentId);
    expect(end.state).toBe('ERROR');
    expect(end.donations).toBe(520);
    await h.faults({ partialExtractionFailure: null });
    const resent = await desk.call('upload.resend', { intentId });
    expect(resent.upload.rows).toBe(80);
  }, 60_000);
});
