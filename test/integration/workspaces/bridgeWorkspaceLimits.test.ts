import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawText } from '../../../scripts/esbuildRawText.mjs';
import { encodeCallWithBytes, CALL_WITH_BYTES_TYPE } from '../../../shared/contract/callBody';
import { SECRET_HEADER } from '../../../electron/bridge/server';
import { newDataDir, startBridgeProcess, type BridgeProcess } from '../../e2e/bridgeProcess';

/*
 * The bridge as `npm run web` runs it, on a data folder that holds workspaces that cannot be
 * opened (damaged, or far too large), and asked to create workspaces that could not be opened.
 */

const WORKSPACES = 'workspaces';
const DAMAGED = '11111111-2222-4333-8444-555555555555';
const TOO_LARGE = '66666666-7777-4888-8999-aaaaaaaaaaaa';
const source = {
  fileName: 'october.xlsx',
  format: 'xlsx',
  sheet: 'Gifts',
  headerRow: 1,
  headerRowCount: 1,
  totalsRow: null,
  skippedBlankRows: 0,
  warnings: [],
};

/** A workspace folder as the app kept them before chunk files (meta.json and workspace.json). */
async function oneFileWorkspace(dataDir: string, id: string, name: string, snapshot: string) {
  const dir = join(dataDir, WORKSPACES, id);
  await mkdir(dir, { recursive: true });
  const meta = { id, name, createdAt: '2026-10-01T09:00:00.000Z', updatedAt: '2026-10-01T09:00:00.000Z' };
  await writeFile(join(dir, 'meta.json'), JSON.stringify({ ...meta, state: 'draft', source, counts: null }));
  await writeFile(join(dir, 'workspace.json'), snapshot);
}

let dataDir: string;
let bridge: BridgeProcess;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several channels, read loosely
async function call(channel: string, input: unknown): Promise<{ status: number; body: any }> {
  const withBytes = encodeCallWithBytes(input);
  const res = await fetch(`${bridge.origin}/api/call/${channel}`, {
    method: 'POST',
    headers: {
      'content-type': withBytes ? CALL_WITH_BYTES_TYPE : 'application/json',
      [SECRET_HEADER]: bridge.secret,
    },
    body: withBytes
      ? new Blob(withBytes as unknown as ConstructorParameters<typeof Blob>[0])
      : JSON.stringify(input),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  await build({
    entryPoints: ['electron/bridge/index.ts'],
    outfile: 'out/bridge/index.cjs',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['electron', '@photostructure/sqlite', 'pg-native'],
    logLevel: 'silent',
    plugins: [rawText],
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  dataDir = await newDataDir();
  await oneFileWorkspace(dataDir, DAMAGED, 'September gifts', '{"id":"11111111-2222-4333-8444-5555');
  // Fifty million rows of no cells, packed: what a request could write before the limits (100 MB
  // on disk; opening it took the bridge down with it, then again at every start).
  const rowNumbers = `[${'null,'.repeat(50_000_000 - 1)}null]`;
  await oneFileWorkspace(
    dataDir,
    TOO_LARGE,
    'Fifty million rows',
    `{"id":"${TOO_LARGE}","name":"Fifty million rows","createdAt":"2026-10-01T09:00:00.000Z","updatedAt":"2026-10-01T09:00:00.000Z","state":"draft","source":${JSON.stringify(source)},"counts":null,"headers":[],"packedRows":{"texts":"","lengths":"","rowNumbers":${rowNumbers},"width":0},"nextKey":50000000,"mapping":null,"version":0}`,
  );
  bridge = await startBridgeProcess(dataDir);
}, 120_000);

afterAll(async () => {
  await bridge?.stop();
});

describe('a data folder holding workspaces that cannot be opened', () => {
  it('starts, opens neither, names both as ones that cannot be opened with what to do, and works for the rest', async () => {
    for (const id of [DAMAGED, TOO_LARGE]) {
      const opened = await call('workspace.open', { id });
      expect(opened.body).toMatchObject({ ok: false, error: { code: 'DAMAGED_WORKSPACE' } });
      expect(opened.body.error.message).toMatch(
        /cannot be opened: .*Delete it from the list, or open a copy of the original spreadsheet \(october\.xlsx\)/,
      );
    }
    const listed = await call('workspace.list', {});
    const byId = new Map(
      (listed.body.value as { id: string; name: string; unopenable?: string }[]).map((m) => [m.id, m]),
    );
    expect(byId.get(DAMAGED)?.unopenable).toMatch(/^“September gifts” cannot be opened/);
    expect(byId.get(TOO_LARGE)?.unopenable).toMatch(/^“Fifty million rows” cannot be opened/);

    // The rest of the app works: a new workspace is made and opened beside them.
    const created = await call('workspace.create', {
      name: 'November',
      source,
      headers: ['Charity ID', 'Amount'],
      rows: [{ key: 0, rowNumber: 2, cells: ['840-123456789', '25.00'] }],
      mapping: null,
    });
    expect(created.body.ok).toBe(true);
    expect((await call('workspace.open', { id: created.body.value.id })).body.value.rows).toHaveLength(1);
    expect((await call('settings.get', {})).body.ok).toBe(true);

    // A fresh start on the same folder works too, and still names them.
    await bridge.kill();
    bridge = await startBridgeProcess(dataDir);
    const again = await call('workspace.list', {});
    expect(again.body.value.filter((m: { unopenable?: string }) => m.unopenable)).toHaveLength(2);
  }, 120_000);
});

describe('requests for a workspace that could not be opened', () => {
  it('refuses fifty million rows of no cells, or a cell longer than Excel allows, with 400 and a plain message, before writing anything', async () => {
    const before = await readdir(join(dataDir, WORKSPACES));
    const fiftyMillion = await call('workspace.create', {
      name: 'Huge',
      source,
      headers: [],
      packedRows: {
        texts: new Uint8Array(0),
        lengths: new Uint8Array(0),
        rowNumbers: new Uint8Array(50_000_000 * 4),
        width: 0,
      },
      mapping: null,
    });
    expect(fiftyMillion.status).toBe(400);
    expect(fiftyMillion.body.error.message).toMatch(/at most 1,048,576 rows/);

    const longCell = await call('workspace.create', {
      name: 'Long cell',
      source,
      headers: ['Note'],
      rows: [{ key: 0, rowNumber: 2, cells: ['x'.repeat(32_768)] }],
      mapping: null,
    });
    expect(longCell.status).toBe(400);
    expect(longCell.body.error.message).toMatch(/32,767 characters a cell/);

    const longHeader = await call('workspace.create', {
      name: 'Long header',
      source,
      headers: ['x'.repeat(32_768)],
      rows: [],
      mapping: null,
    });
    expect(longHeader.status).toBe(400);
    expect(longHeader.body.error.message).toMatch(/32767|32,767/);
    expect(await readdir(join(dataDir, WORKSPACES))).toEqual(before);
  }, 120_000);
});
