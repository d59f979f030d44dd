import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerStore } from '../../../electron/services/ledger/ledgerStore';
import type { LedgerGroup } from '../../../electron/services/ledger/ledgerShapes';
import { openDesk, startEmu, type Emu } from './harness';
import { recordedUpload, serviceClientOf } from './recordedUpload';

/*
 * A prepared part file changed on disk while it is being sent (another program, a damaged disk, or
 * someone replacing donations after they were checked): the body stops before its end, so the
 * upload host never receives a whole file that is not the recorded one, and the desk says why.
 */

let h: Emu;
beforeAll(async () => {
  h = await startEmu();
});
afterAll(async () => {
  await h.close();
});

/** A recorded upload whose gzipped part is several megabytes, so that it is sent in many pieces. */
async function bigRecordedGroup(
  ledgerDir: string,
): Promise<{ group: LedgerGroup; path: string; bytes: number }> {
  const { group, gz, path } = await recordedUpload(h, ledgerDir, {
    id: 'mid',
    workspaceName: 'Changed while sent',
    count: 8_000,
    // Random text does not compress: the file stays large.
    metadata: (i) => ({
      ddRef: `mid:${i + 1}`,
      ...Object.fromEntries(Array.from({ length: 6 }, (_, k) => [`m${k}`, randomBytes(95).toString('hex')])),
    }),
  });
  return { group, path, bytes: gz.length };
}

describe('a part file that changes on disk while it is sent', () => {
  it('is cut short before its end: the service never gets the file and nothing is created', async () => {
    const ledgerDir = join(h.dataDir, 'uploads');
    const ledger = await LedgerStore.open(ledgerDir);
    const { group, path, bytes } = await bigRecordedGroup(ledgerDir);
    expect(bytes).toBeGreaterThan(3 << 20);
    await ledger.putGroup(group);
    await ledger.close();

    // As the first piece of the body goes out, the end of the file on disk is overwritten.
    let changedAt: number | null = null;
    let uploadBodies = 0;
    const fetchImpl: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith(h.emu.uploadBaseUrl) && init?.body) {
        uploadBodies++;
        const body = init.body as unknown as AsyncIterable<Uint8Array>;
        const tampered = async function* () {
          let sent = 0;
          for await (const chunk of body) {
            sent += chunk.length;
            if (changedAt === null && sent > 0) {
              const handle = await open(path, 'r+');
              await handle.write(Buffer.alloc(64 * 1024, 0x41), 0, 64 * 1024, bytes - 128 * 1024);
              await handle.close();
              changedAt = sent;
            }
            yield chunk;
          }
        };
        return fetch(input, { ...init, body: tampered() as unknown as RequestInit['body'] });
      }
      return fetch(input, init);
    };

    const desk = await openDesk(h, { fetchImpl });
    try {
      let view = (await desk.call('upload.list', {})).find((u) => u.uploadId === group.id);
      for (let i = 0; i < 200 && (!view || view.state === 'sending'); i++) {
        await new Promise((r) => setTimeout(r, 50));
        view = (await desk.call('upload.list', {})).find((u) => u.uploadId === group.id);
      }
      expect(changedAt).not.toBeNull();
      expect(changedAt!).toBeLessThan(bytes);
      expect(uploadBodies).toBe(1);
      // The desk says why; it does not try the changed file again.
      expect(JSON.stringify(view)).toContain('changed on disk');
      const intents = view?.intents ?? [];
      expect(intents.some((i) => i.state === 'UPLOADED' || i.state === 'PROCESSED')).toBe(false);
      // At the service, every intent of it still waits for its file: none was received whole.
      const asked = intents.filter((i) => i.serviceId);
      expect(asked.length).toBeGreaterThan(0);
      for (const intent of asked) {
        const remote = await serviceClientOf(h).getIntent(intent.serviceId as string);
        expect(remote.attributes.status).toBe('PENDING');
      }
    } finally {
      await desk.desk.close();
    }
  }, 60_000);
});
