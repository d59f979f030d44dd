import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { runCliInProcess } from '../cliInProcess';
import { closeDatabase } from '../../../electron/services/db/deskDatabase';
import '../../../electron/cli/commands/upload';
import '../../../electron/cli/commands/audit';

let dir: string;
let emu: RunningEmulator;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-audit-cli-int-'));
  emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 200, quiet: true });
});
afterAll(async () => {
  closeDatabase(join(dir, 'data'));
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  runCliInProcess(emu, dir, args, { DONATION_DESK_POLL_MIN_MS: '100', DONATION_DESK_POLL_MAX_MS: '300' });

describe('donation-desk upload, then audit', () => {
  it('records the CLI’s import with the file’s SHA-256 and its upload, and exports them by upload', async () => {
    const info = (await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json()) as {
      samples: { causesInGoodStanding: Array<{ id: string }> };
    };
    const text = [
      'Charity ID,Amount,Currency',
      `${info.samples.causesInGoodStanding[0]!.id},12.50,USD`,
      '',
    ].join('\n');
    const file = join(dir, 'gifts.csv');
    await writeFile(file, text);
    const sent = await cli(['upload', file, '--wait', '--json']);
    expect(sent.code, sent.err).toBe(0);
    const uploadId = (JSON.parse(sent.out) as { uploadId: string }).uploadId;

    const printed = await cli(['audit', '--json']);
    expect(printed.code, printed.err).toBe(0);
    const { entries } = JSON.parse(printed.out) as {
      entries: Array<{
        action: string;
        person: string;
        environment: string;
        uploadId: string | null;
        details: Record<string, unknown>;
      }>;
    };
    expect(entries.map((e) => e.action)).toEqual(['upload', 'import']);
    expect(entries[1]?.details).toMatchObject({
      fileName: 'gifts.csv',
      fileBytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
      rows: 1,
    });
    expect(entries[0]).toMatchObject({
      uploadId,
      environment: 'custom',
      person: userInfo().username,
      details: { rows: 1, totals: [{ currencyCode: 'USD', count: 1, amount: 1250 }] },
    });

    const out = join(dir, 'upload.csv');
    const written = await cli(['audit', '--upload', uploadId, '--out', out]);
    expect(written.code, written.err).toBe(0);
    expect(written.out).toMatch(/Wrote 1 entry of the audit trail to/);
    const csv = await readFile(out, 'utf8');
    expect(csv).toContain(`,${uploadId},`);
    expect(csv).toContain('$12.50 in 1 row');
  }, 60_000);
});
