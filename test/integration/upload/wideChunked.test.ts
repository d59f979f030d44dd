// Issue 19: a workspace too big for one string goes up in bounded memory. The command line reads a
// large file in passes, saves the workspace chunk by chunk, and each part's gzip file is written to
// disk and sent from there as a stream. Here, small limits make the same paths run on a small file:
// the file is read in passes (DONATION_DESK_STREAM_FROM_BYTES), the workspace spans several chunk
// files, and the upload is cut into several parts (DONATION_DESK_MAX_BYTES_PER_FILE).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { runCliInProcess } from '../cliInProcess';
import '../../../electron/cli/commands/upload';
import '../../../electron/cli/commands/donations';

const ROWS = 600;
const KEYS = Array.from({ length: 99 }, (_, i) => `Meta ${i + 1}`);
const value = (r: number, k: number): string =>
  `${r}-${k}-${'abcdefghijklmnopqrstuvwxyz'.repeat(8)}`.slice(0, 190);

let dir: string;
let emu: RunningEmulator;
let file: string;
let mapping: string;
let recipient: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-wide-'));
  emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 200, quiet: true });
  const info = (await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json()) as {
    samples: { causesInGoodStanding: Array<{ id: string }> };
  };
  recipient = info.samples.causesInGoodStanding[0]!.id;
  const lines = [['Charity ID', 'Amount', 'Currency', ...KEYS].join(',')];
  for (let r = 0; r < ROWS; r++)
    lines.push([recipient, `${(r % 90) + 10}.50`, 'USD', ...KEYS.map((_, k) => value(r, k))].join(','));
  file = join(dir, 'wide.csv');
  await writeFile(file, `${lines.join('\n')}\n`);
  mapping = join(dir, 'mapping.json');
  await writeFile(
    mapping,
    JSON.stringify({
      columns: {
        'Charity ID': 'recipientId',
        Amount: 'amount',
        Currency: 'currencyCode',
        ...Object.fromEntries(KEYS.map((k, i) => [k, `metadata.m${i + 1}`])),
      },
    }),
  );
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  runCliInProcess(emu, dir, args, {
    DONATION_DESK_POLL_MIN_MS: '100',
    DONATION_DESK_POLL_MAX_MS: '300',
    DONATION_DESK_STREAM_FROM_BYTES: '4096',
    DONATION_DESK_MAX_BYTES_PER_FILE: String(4 * 1024 * 1024),
  });

describe('a wide file uploaded from a file read in passes, in several parts', () => {
  it('uploads every row with its 99 metadata values and the row reference, and reads them back', async () => {
    const sent = await cli(['upload', file, '--mapping', mapping, '--wait', '--json']);
    expect(sent.code, sent.err).toBe(0);
    const upload = JSON.parse(sent.out) as {
      state: string;
      rows: number;
      workspaceId: string;
      intents: Array<{ state: string; rows: number; part: number }>;
    };
    expect(upload).toMatchObject({ state: 'processed', rows: ROWS });
    // About 11.5 MB of JSON in parts of at most 4 MB.
    expect(upload.intents.length).toBeGreaterThanOrEqual(3);
    expect(upload.intents.every((i) => i.state === 'PROCESSED')).toBe(true);
    expect(upload.intents.reduce((n, i) => n + i.rows, 0)).toBe(ROWS);

    // The workspace was saved in more than one chunk file.
    const workspaceFiles = await readdir(join(dir, 'data', 'workspaces', upload.workspaceId));
    expect(workspaceFiles.filter((f) => f.startsWith('rows-')).length).toBeGreaterThan(1);

    // Each part's file on disk is a whole bulk file, in row order across the parts.
    const ledgerFiles = (await readdir(join(dir, 'data', 'uploads', 'files'))).sort(
      (a, b) => Number(/-(\d+)\.json\.gz$/.exec(a)?.[1]) - Number(/-(\d+)\.json\.gz$/.exec(b)?.[1]),
    );
    expect(ledgerFiles).toHaveLength(upload.intents.length);
    const firsts: string[] = [];
    for (const f of ledgerFiles) {
      const json = JSON.parse(
        gunzipSync(await readFile(join(dir, 'data', 'uploads', 'files', f))).toString(),
      ) as {
        data: Array<{ attributes: { metadata: Record<string, string> } }>;
      };
      for (const d of json.data) firsts.push(d.attributes.metadata.m1 as string);
    }
    expect(firsts).toEqual(Array.from({ length: ROWS }, (_, r) => value(r, 0)));

    const listed = await cli(['donations', '--json']);
    expect(listed.code, listed.err).toBe(0);
    const { donations } = JSON.parse(listed.out) as {
      donations: Array<{ metadata?: Record<string, string>; row?: number | null; amount?: number }>;
    };
    expect(donations).toHaveLength(ROWS);
    const byFirst = new Map(donations.map((d) => [d.metadata?.m1, d]));
    for (let r = 0; r < ROWS; r++) {
      const d = byFirst.get(value(r, 0));
      expect(d, `row ${r + 2}`).toBeDefined();
      expect(Object.keys(d!.metadata ?? {})).toHaveLength(100);
      expect(d!.metadata?.m99).toBe(value(r, 98));
    }
  }, 120_000);
});
