import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, driveToEnd, makeRows, openDesk, startEmu, type Desk, type Emu } from './harness';

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

/** Four rows: two created before the extraction fails ($10 + $20), then $30 and €100 that were not. */
function mixedRows(recipients: string[]) {
  const rows = makeRows(recipients, 4);
  const set = (i: number, amount: string, currency: string) => {
    const row = rows[i] as (typeof rows)[number];
    row.cells[1] = amount;
    row.cells[2] = currency;
  };
  set(0, '10.00', 'USD');
  set(1, '20.00', 'USD');
  set(2, '30.00', 'USD');
  set(3, '100.00', 'EUR');
  return rows;
}

async function standingOf(d: Desk, id: string) {
  return (await d.call('workspace.list', {})).find((w) => w.id === id)?.standing;
}

describe('where a workspace stands, and what a resend states', () => {
  it('goes not uploaded → needs repair → corrected, and the resend previews only the rows it sends', async () => {
    await h.faults({ partialExtractionFailure: { afterDonations: 2 } });
    desk = await openDesk(h);
    const id = await createWorkspace(desk, mixedRows(h.recipients));
    expect((await standingOf(desk, id))?.kind).toBe('not-uploaded');

    const started = await desk.call('upload.start', { workspaceId: id });
    const intentId = started.upload.intents.at(-1)?.intentId as string;
    expect((await standingOf(desk, id))?.kind).toBe('uploaded');
    expect((await driveToEnd(h, desk, intentId)).state).toBe('ERROR');
    const broken = await standingOf(desk, id);
    expect(broken?.kind).toBe('needs-repair');
    expect(broken?.upload?.intentId).toBe(intentId);
    expect((await desk.call('workspace.open', { id })).standing?.kind).toBe('needs-repair');

    await h.faults({ partialExtractionFailure: null });
    // The whole workspace is $60.00 and €100.00 in 4; the resend sends $30.00 and €100.00 in 2.
    const whole = await desk.call('upload.preview', { workspaceId: id });
    expect(whole.totals).toEqual(
      expect.arrayContaining([
        { currencyCode: 'USD', count: 3, amount: 6000 },
        { currencyCode: 'EUR', count: 1, amount: 10000 },
      ]),
    );
    const preview = await desk.call('upload.preview', { workspaceId: id, resendIntentId: intentId });
    expect(preview.rows).toBe(2);
    expect(preview.valid).toBe(2);
    expect(preview.duplicates).toEqual([]);
    expect(preview.totals).toEqual(
      expect.arrayContaining([
        { currencyCode: 'USD', count: 1, amount: 3000 },
        { currencyCode: 'EUR', count: 1, amount: 10000 },
      ]),
    );
    expect(preview.totals).toHaveLength(2);

    const resent = await desk.call('upload.resend', { intentId });
    expect(resent.upload.totals).toEqual(preview.totals);
    expect((await driveToEnd(h, desk, resent.upload.intents.at(-1)?.intentId as string)).state).toBe(
      'PROCESSED',
    );
    const corrected = await standingOf(desk, id);
    expect(corrected?.kind).toBe('corrected');
    expect(corrected?.upload).toMatchObject({ uploadId: resent.uploadId, state: 'processed' });
  });
});
