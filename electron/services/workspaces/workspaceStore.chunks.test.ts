import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encodeLengths,
  type Workspace,
  type WorkspaceEdit,
  type WorkspaceRow,
} from '../../../shared/contract';
import { applyEdits } from './applyEdits';
import { CHUNK_CHARS, ChunkedRows } from './rowChunks';
import { WorkspaceStore } from './workspaceStore';

const source = {
  fileName: 'november.xlsx',
  format: 'xlsx',
  sheet: 'Donations',
  headerRow: 1,
  headerRowCount: 1,
  totalsRow: null,
  skippedBlankRows: 0,
  warnings: [],
};
const ID = '0f8e2a44-5d1c-4a8e-9a57-3c1d2b7e9f10';

/** A workspace folder exactly as the app wrote it before chunks: meta.json and one workspace.json. */
async function todayFormat(root: string, rows: { rows: WorkspaceRow[] } | { packedRows: unknown }) {
  const meta = {
    id: ID,
    name: 'Written before chunks',
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    state: 'draft',
    source,
    counts: null,
  };
  await mkdir(join(root, ID), { recursive: true });
  await writeFile(join(root, ID, 'meta.json'), JSON.stringify(meta));
  await writeFile(
    join(root, ID, 'workspace.json'),
    JSON.stringify({
      ...meta,
      headers: ['Charity ID', 'Amount'],
      ...rows,
      nextKey: 2,
      mapping: null,
      version: 0,
    }),
  );
  return join(root, ID);
}

const chunkFiles = async (dir: string) => (await readdir(dir)).filter((f) => f.startsWith('rows-')).sort();

/** Rows long enough that a few hundred fill a chunk. */
function wideRows(count: number, width = 100, cell = 190): WorkspaceRow[] {
  return Array.from({ length: count }, (_, r) => ({
    key: r,
    rowNumber: r + 2,
    cells: Array.from({ length: width }, (_, c) => `${r}.${c}:`.padEnd(cell, 'x')),
  }));
}

describe('WorkspaceStore in chunk files', () => {
  it('opens a workspace kept in today’s one file, edits and all, and keeps it in chunks from then on', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const dir = await todayFormat(root, {
      rows: [
        { key: 0, rowNumber: 2, cells: ['840-123456789', '25.00'] },
        { key: 1, rowNumber: 3, cells: ['840-987654321', '10'] },
      ],
    });
    await writeFile(
      join(dir, 'journal.ndjson'),
      `${JSON.stringify({ v: 1, edits: [{ op: 'set', key: 1, column: 1, value: '11' }] })}\n`,
    );
    const store = new WorkspaceStore(root);
    const opened = await store.open(ID);
    expect(opened.rows.map((r) => r.cells)).toEqual([
      ['840-123456789', '25.00'],
      ['840-987654321', '11'],
    ]);
    expect(opened.version).toBe(1);
    const files = await readdir(dir);
    expect(files).not.toContain('workspace.json');
    expect(files).toContain('manifest.json');
    expect(await chunkFiles(dir)).toHaveLength(1);
    await store.edit(ID, 1, [{ op: 'set', key: 0, column: 0, value: '840-000000001' }]);
    const again = await new WorkspaceStore(root).open(ID);
    expect(again.rows[0]?.cells[0]).toBe('840-000000001');
    expect(again.name).toBe('Written before chunks');
  });

  it('opens a workspace of today’s format with packed rows', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    await todayFormat(root, {
      packedRows: { texts: 'ab€d', lengths: encodeLengths([1, 1, 1, 1]), rowNumbers: [2, null], width: 2 },
    });
    expect((await new WorkspaceStore(root).open(ID)).rows).toEqual([
      { key: 0, rowNumber: 2, cells: ['a', 'b'] },
      { key: 1, rowNumber: null, cells: ['€', 'd'] },
    ]);
  });

  it('refuses a damaged workspace of today’s format in plain words, leaves it as it was, and lists it as one that cannot be opened', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const dir = await todayFormat(root, {
      packedRows: { texts: 'abc', lengths: encodeLengths([1, 1]), rowNumbers: [2, 3], width: 1 },
    });
    const store = new WorkspaceStore(root);
    const good = await store.create({ name: 'Good', source, headers: ['A'], rows: [], mapping: null });
    const before = await readFile(join(dir, 'workspace.json'), 'utf8');
    await expect(store.open(ID)).rejects.toMatchObject({
      code: 'DAMAGED_WORKSPACE',
      message: expect.stringMatching(
        /“Written before chunks” cannot be opened.*Delete it from the list, or open a copy of the original spreadsheet \(november\.xlsx\)/,
      ),
    });
    expect(await readFile(join(dir, 'workspace.json'), 'utf8')).toBe(before);
    const listed = await new WorkspaceStore(root).list();
    expect(listed.find((m) => m.id === ID)?.unopenable).toMatch(/cannot be opened/);
    expect(listed.find((m) => m.id === good.id)?.unopenable).toBeUndefined();
    expect((await store.open(good.id)).name).toBe('Good');
    expect(await store.delete(ID)).toEqual({ deleted: true });
  });

  it('refuses, and lists as one that cannot be opened, a workspace whose chunk is damaged or whose list of chunks claims too many rows', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const store = new WorkspaceStore(root);
    const torn = await store.create({
      name: 'Torn',
      source,
      headers: ['A'],
      rows: wideRows(3, 1),
      mapping: null,
    });
    const [chunk] = await chunkFiles(join(root, torn.id));
    const path = join(root, torn.id, chunk as string);
    await writeFile(path, (await readFile(path, 'utf8')).slice(0, 10));
    const huge = await store.create({
      name: 'Huge',
      source,
      headers: ['A'],
      rows: wideRows(3, 1),
      mapping: null,
    });
    const manifestPath = join(root, huge.id, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { chunks: { rows: number }[] };
    (manifest.chunks[0] as { rows: number }).rows = 50_000_000;
    await writeFile(manifestPath, JSON.stringify(manifest));

    const listed = await new WorkspaceStore(root).list();
    expect(listed.find((m) => m.id === huge.id)?.unopenable).toMatch(
      /“Huge” cannot be opened: it holds more rows or columns than a workspace can/,
    );
    await expect(store.open(torn.id)).rejects.toMatchObject({ code: 'DAMAGED_WORKSPACE' });
    await expect(store.read(huge.id)).rejects.toMatchObject({ code: 'DAMAGED_WORKSPACE' });
    const after = await new WorkspaceStore(root).list();
    expect(after.find((m) => m.id === torn.id)?.unopenable).toMatch(/“Torn” cannot be opened/);
  });

  it('folds an edit in by writing the one chunk it touched, not the whole workspace', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const store = new WorkspaceStore(root);
    // About 19 KB a row: a chunk holds about 430 of them, so 1,500 rows make four chunks.
    const rows = wideRows(1500);
    const created = await store.create({ name: 'Wide', source, headers: [], rows, mapping: null });
    const dir = join(root, created.id);
    const before = await chunkFiles(dir);
    expect(before.length).toBeGreaterThanOrEqual(4);
    for (const file of before)
      expect((await readFile(join(dir, file))).byteLength).toBeLessThan(CHUNK_CHARS * 1.1);
    await store.edit(created.id, 0, [{ op: 'set', key: 700, column: 3, value: 'changed' }]);
    const opened = await store.open(created.id);
    const after = await chunkFiles(dir);
    expect(after.filter((f) => !before.includes(f))).toHaveLength(1);
    expect(before.filter((f) => !after.includes(f))).toHaveLength(1);
    expect(opened.rows[700]?.cells[3]).toBe('changed');
    expect(opened.rows).toHaveLength(1500);
  });

  it('after a crash at any step of a save, opens the previous state or the new one, never a mix', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const store = new WorkspaceStore(root);
    const created = await store.create({
      name: 'Crash',
      source,
      headers: ['A'],
      rows: wideRows(3, 1, 4),
      mapping: null,
    });
    const dir = join(root, created.id);
    await store.edit(created.id, 0, [{ op: 'set', key: 1, column: 0, value: 'new' }]);
    const manifestBefore = await readFile(join(dir, 'manifest.json'), 'utf8');

    // Crash after writing a new chunk and a temporary manifest, before the manifest was replaced:
    // the journal still holds the edit, so the edit is there, and the stray files are swept away.
    await writeFile(join(dir, 'rows-00000000000000aa.json'), '[[0,2,["half');
    await writeFile(join(dir, '.manifest.json.123456.tmp'), '{"format":2,');
    const reopened = await new WorkspaceStore(root).open(created.id);
    expect(reopened.rows.map((r) => r.cells[0])).toEqual(['0.0:', 'new', '2.0:']);
    expect(await readdir(dir)).not.toContain('rows-00000000000000aa.json');

    // Crash after the manifest was replaced, before the journal was emptied: edits already in the
    // manifest are not applied twice.
    await writeFile(
      join(dir, 'journal.ndjson'),
      `${JSON.stringify({ v: 1, edits: [{ op: 'insert', index: 0, row: { key: 9, rowNumber: null, cells: ['twice?'] } }] })}\n`,
    );
    const once = await new WorkspaceStore(root).open(created.id);
    expect(once.rows.map((r) => r.cells[0])).toEqual(['0.0:', 'new', '2.0:']);
    expect(manifestBefore).not.toBe(await readFile(join(dir, 'manifest.json'), 'utf8'));
  });

  it('applies edits chunk by chunk exactly as applyEdits does to the whole list', () => {
    const rows = wideRows(40, 3, 4);
    const chunks = [0, 10, 25, 40].slice(0, -1).map((from, i) => ({
      file: `rows-${i}`,
      bytes: 0,
      rows: rows.slice(from, [10, 25, 40][i]).map((r) => ({ ...r, cells: [...r.cells] })),
    }));
    const chunked = new ChunkedRows(chunks);
    const whole = {
      rows: rows.map((r) => ({ ...r, cells: [...r.cells] })),
      nextKey: 40,
    } as unknown as Workspace;
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 300; i++) {
      const kind = random(3);
      const edit: WorkspaceEdit =
        kind === 0
          ? { op: 'set', key: random(50), column: random(5), value: `v${i}` }
          : kind === 1
            ? { op: 'insert', index: random(60), row: { key: 100 + i, rowNumber: null, cells: [`n${i}`] } }
            : { op: 'delete', key: random(60) };
      chunked.apply([edit]);
      applyEdits(whole, [edit]);
    }
    expect(chunked.rows()).toEqual(whole.rows);
    expect(chunks.filter((c) => c.file === null).length).toBeGreaterThan(0);
  });
});
