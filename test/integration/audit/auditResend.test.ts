import { userInfo, hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase } from '../../../electron/services/db/deskDatabase';
import {
  createWorkspace,
  driveToEnd,
  makeRows,
  openDesk,
  startEmu,
  type Desk,
  type Emu,
} from '../upload/harness';

let h: Emu;
let desk: Desk;
beforeAll(async () => {
  h = await startEmu();
  desk = await openDesk(h);
});
afterAll(async () => {
  await desk.desk.close();
  closeDatabase(h.dataDir);
  await h.close();
});

describe('the audit trail of a repair', () => {
  it('records the rejected upload and the resend of its rows without a donation, linked to it', async () => {
    await h.faults({ partialExtractionFailure: { afterDonations: 3 } });
    const rows = makeRows(h.recipients, 5);
    const workspaceId = await createWorkspace(desk, rows);
    const started = await desk.call('upload.start', { workspaceId });
    const first = started.upload.intents.at(-1)!;
    expect((await driveToEnd(h, desk, first.intentId)).state).toBe('ERROR');
    await h.faults({ partialExtractionFailure: null });
    const resent = await desk.call('upload.resend', { intentId: first.intentId });

    const { entries } = await desk.call('audit.list', { filter: { workspaceId } });
    expect(entries.map((e) => e.action)).toEqual(['resend', 'upload', 'import']);
    const [resend, upload] = entries;
    // Without an identity from the host: the operating system's user and computer names.
    expect(resend).toMatchObject({ person: userInfo().username, computer: hostname() });
    expect(upload?.details).toMatchObject({ rows: 5, files: [{ rowNumbers: rows.map((r) => r.rowNumber) }] });
    expect(resend).toMatchObject({
      uploadId: resent.uploadId,
      details: {
        correctsIntent: first.intentId,
        rows: 2,
        corrects: first.serviceId,
        files: [
          { rowNumbers: rows.slice(3).map((r) => r.rowNumber), sha256: resent.upload.intents[0]?.fileHash },
        ],
      },
    });
  }, 60_000);
});
