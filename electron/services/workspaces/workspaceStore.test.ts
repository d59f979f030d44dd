import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { WorkspaceStore } from './workspaceStore';

const source = {
  fileName: 'november.xlsx',
  format: 'xlsx',
  sheet: 'Donations',
  headerRow: 3,
  headerRowCount: 1,
  totalsRow: null,
  skippedBlankRows: 0,
  warnings: [],
};

async function storeWithWorkspace() {
  const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
  const store = new WorkspaceStore(root);
  const meta = await store.create({
    name: 'November',
    source,
    headers: ['Charity ID', 'Amount'],
    rows: [
      { key: 0, rowNumber: 4, cells: ['840-123456789', '25.00'] },
      { key: 1, rowNumber: 5, cells: ['840-987654321', '10'] },
    ],
    mapping: { columns: { 'Charity ID': 'recipientId' } },
  });
  return { root, store, id: meta.id };
}

describe('WorkspaceStore', () => {
  it('keeps every acknowledged edit across a restart (a new store on the same folder)', async () => {
    const { root, store, id } = await storeWithWorkspace();
    let { version } = await store.edit(id, 0, [{ op: 'set', key: 0, column: 1, value: '30.00' }]);
    ({ version } = await store.edit(id, version, [
      { op: 'insert', index: 2, row: { key: 2, rowNumber: null, cells: ['840-111111111', '5'] } },
      { op: 'delete', key: 1 },
    ]));
    expect(version).toBe(3);

    // Simulate a crash: nothing is closed or flushed, a new process opens the folder.
    const reopened = await new WorkspaceStore(root).open(id);
    expect(reopened.version).toBe(3);
    expect(reopened.rows.map((r) => r.cells)).toEqual([
      ['840-123456789', '30.00'],
      ['840-111111111', '5'],
    ]);
    expect(reopened.nextKey).toBe(3);
  });

  it('ignores a journal line torn by a crash in the middle of an append', async () => {
    const { root, store, id } = await storeWithWorkspace();
    await store.edit(id, 0, [{ op: 'set', key: 1, column: 0, value: 'kept' }]);
    await appendFile(join(root, id, 'journal.ndjson'), '{"v":2,"edits":[{"op":"set","key":1,"col');
    const reopened = await new WorkspaceStore(root).open(id);
    expect(reopened.rows[1]?.cells[0]).toBe('kept');
    expect(reopened.version).toBe(1);
  });

  it('refuses edits based on a version it does not have, so no edit is silently lost', async () => {
    const { store, id } = await storeWithWorkspace();
    await store.edit(id, 0, [{ op: 'set', key: 0, column: 0, value: 'a' }]);
    await expect(store.edit(id, 0, [{ op: 'set', key: 0, column: 0, value: 'b' }])).rejects.toMatchObject({
      code: 'STALE_WORKSPACE',
    });
  });

  it('folds the journal into the manifest when opened', async () => {
    const { root, store, id } = await storeWithWorkspace();
    await store.edit(id, 0, [{ op: 'rename', name: 'November final' }]);
    await store.open(id);
    expect(await readFile(join(root, id, 'journal.ndjson'), 'utf8')).toBe('');
    expect(JSON.parse(await readFile(join(root, id, 'manifest.json'), 'utf8')).name).toBe('November final');
  });

  it('lists workspaces newest first with their name, counts and state, and deletes them', async () => {
    const { store, id } = await storeWithWorkspace();
    await store.edit(id, 0, [{ op: 'rename', name: 'Renamed' }]);
    await store.summary(id, { rows: 2, valid: 1, invalid: 1, warnings: 0 }, 'draft');
    const [listed] = await store.list();
    expect(listed).toMatchObject({ id, name: 'Renamed', counts: { invalid: 1 }, state: 'draft' });
    expect(await store.delete(id)).toEqual({ deleted: true });
    expect(await store.list()).toEqual([]);
    await expect(store.open(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps edits in order when many are sent at once', async () => {
    const { store, id } = await storeWithWorkspace();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.edit(id, i, [{ op: 'set', key: 0, column: 1, value: String(i) }]),
      ),
    );
    expect(results.map((r) => r.version)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const reopened = await store.open(id);
    expect(reopened.rows[0]?.cells[1]).toBe('19');
  });

  it('writes rows given packed as they are, and opens them as rows keyed in order, edits and all', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const store = new WorkspaceStore(root);
    const created = await store.create({
      name: 'Packed',
      source,
      headers: ['Charity ID', 'Amount'],
      packedRows: {
        texts: '840-12345678925.00840-9876543210Zoë 😀',
        lengths: new Uint32Array([13, 5, 13, 1, 0, 6]),
        rowNumbers: [4, 5, null],
        width: 2,
      },
      mapping: null,
    });
    expect(created).toMatchObject({ name: 'Packed', nextKey: 3, version: 0, counts: null });
    expect('rows' in created).toBe(false);
    await store.edit(created.id, 0, [{ op: 'set', key: 1, column: 1, value: '11' }]);
    const reopened = await new WorkspaceStore(root).open(created.id);
    expect(reopened.rows).toEqual([
      { key: 0, rowNumber: 4, cells: ['840-123456789', '25.00'] },
      { key: 1, rowNumber: 5, cells: ['840-987654321', '11'] },
      { key: 2, rowNumber: null, cells: ['', 'Zoë 😀'] },
    ]);
    expect(reopened.nextKey).toBe(3);
  });

  it('creates a workspace from rows staged ahead, once, and only from the last rows staged', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const store = new WorkspaceStore(root);
    const packed = (amount: string) => ({
      texts: `840-123456789${amount}`,
      lengths: new Uint32Array([13, amount.length]),
      rowNumbers: [2],
      width: 2,
    });
    const first = store.stageRows(packed('1.00'));
    const second = store.stageRows(packed('2.00'));
    expect(second).toMatchObject({ rowCount: 1 });
    const details = { name: 'Staged', source, headers: ['Charity ID', 'Amount'], mapping: { a: 1 } };
    // Staging again let the first rows go: a workspace is never made from rows other than the last.
    await expect(store.create({ ...details, stagedRows: first.stageId })).rejects.toMatchObject({
      code: 'STAGED_ROWS_GONE',
    });
    const created = await store.create({ ...details, stagedRows: second.stageId });
    expect(created).toMatchObject({ name: 'Staged', nextKey: 1, version: 0 });
    const reopened = await new WorkspaceStore(root).open(created.id);
    expect(reopened.rows).toEqual([{ key: 0, rowNumber: 2, cells: ['840-123456789', '2.00'] }]);
    expect(reopened.mapping).toEqual({ a: 1 });
    expect(reopened.headers).toEqual(['Charity ID', 'Amount']);
    // The staged rows made one workspace: a second create from them is refused, not a copy.
    await expect(store.create({ ...details, stagedRows: second.stageId })).rejects.toMatchObject({
      code: 'STAGED_ROWS_GONE',
    });
    expect(await store.list()).toHaveLength(1);
  });

  it('keeps staged texts that need escaping exactly as they were', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-ws-'));
    const store = new WorkspaceStore(root);
    const cells = ['say "hi"', 'C:\\gifts', 'two\nlines', 'Zoë 😀'];
    const { stageId } = store.stageRows({
      texts: cells.join(''),
      lengths: new Uint32Array(cells.map((cell) => cell.length)),
      rowNumbers: [2, null],
      width: 2,
    });
    const created = await store.create({
      name: 'Escaped',
      source,
      headers: ['A', 'B'],
      stagedRows: stageId,
      mapping: null,
    });
    expect((await new WorkspaceStore(root).open(created.id)).rows).toEqual([
      { key: 0, rowNumber: 2, cells: cells.slice(0, 2) },
      { key: 1, rowNumber: null, cells: cells.slice(2) },
    ]);
  });

  it('lets staged rows go when a workspace is made from rows sent with the request', async () => {
    const store = new WorkspaceStore(await mkdtemp(join(tmpdir(), 'desk-ws-')));
    const rows = { texts: 'a', lengths: new Uint32Array([1]), rowNumbers: [2], width: 1 };
    const { stageId } = store.stageRows(rows);
    await store.create({ name: 'Sent', source, headers: ['A'], packedRows: rows, mapping: null });
    await expect(
      store.create({ name: 'Staged', source, headers: ['A'], stagedRows: stageId, mapping: null }),
    ).rejects.toMatchObject({ code: 'STAGED_ROWS_GONE' });
  });

  it('lets staged rows go after ten minutes', async () => {
    vi.useFakeTimers();
    try {
      const store = new WorkspaceStore(await mkdtemp(join(tmpdir(), 'desk-ws-')));
      const { stageId } = store.stageRows({
        texts: 'a',
        lengths: new Uint32Array([1]),
        rowNumbers: [2],
        width: 1,
      });
      vi.advanceTimersByTime(10 * 60 * 1000);
      await expect(
        store.create({ name: 'Late', source, headers: ['A'], stagedRows: stageId, mapping: null }),
      ).rejects.toMatchObject({ code: 'STAGED_ROWS_GONE' });
    } finally {
      vi.useRealTimers();
    }
  });
});
