import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceChanges } from './heldWorkspace';
import { WorkspaceStore, type WorkspaceObserver } from './workspaceStore';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'dd-ws-audit-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function observed() {
  const created: Array<{ id: string; rows: number }> = [];
  const edited: Array<{ id: string; version: number; changes: WorkspaceChanges }> = [];
  const deleted: string[] = [];
  const observer: WorkspaceObserver = {
    created: (meta, imported) => created.push({ id: meta.id, rows: imported.rows }),
    edited: (id, version, changes) => edited.push({ id, version, changes }),
    deleted: (meta) => deleted.push(meta.name),
  };
  return { created, edited, deleted, store: new WorkspaceStore(root, observer) };
}

const input = {
  name: 'Gifts',
  source: {
    fileName: 'g.xlsx',
    format: 'xlsx',
    sheet: 'S',
    headerRow: 1,
    headerRowCount: 1,
    totalsRow: null,
    skippedBlankRows: 0,
    warnings: [],
  },
  headers: ['Charity ID', 'Amount'],
  rows: [
    { key: 0, rowNumber: 2, cells: ['c1', '10.00'] },
    { key: 1, rowNumber: 3, cells: ['c2', '20.00'] },
  ],
  mapping: null,
};

describe('WorkspaceStore with an observer (the audit trail)', () => {
  it('tells of each import and of each edit with the values before, also after a restart', async () => {
    const first = observed();
    const meta = await first.store.create(input);
    expect(first.created).toEqual([{ id: meta.id, rows: 2 }]);
    await first.store.edit(meta.id, 0, [{ op: 'set', key: 1, column: 1, value: '25.00' }]);
    expect(first.edited[0]).toMatchObject({
      version: 1,
      changes: { cells: [{ key: 1, row: 3, column: 'Amount', from: '20.00', to: '25.00' }] },
    });
    // A new process: the first edit reads the workspace (snapshot and journal) from disk.
    const again = observed();
    await again.store.edit(meta.id, 1, [{ op: 'set', key: 1, column: 1, value: '30.00' }]);
    await again.store.delete(meta.id);
    await again.store.delete(meta.id);
    // Told once: the second found nothing to delete.
    expect(again.deleted).toEqual(['Gifts']);
    expect(again.edited[0]?.changes.cells).toEqual([
      { key: 1, row: 3, column: 'Amount', from: '25.00', to: '30.00' },
    ]);
  });

  it('tells nothing of an edit that could not be written, and the next edit sees the value on disk', async () => {
    const { store, edited } = observed();
    const meta = await store.create(input);
    const opened = await store.open(meta.id);
    const shown = structuredClone(opened);
    // The journal cannot be appended to (a folder where the file should be).
    await rm(join(root, meta.id, 'journal.ndjson'), { force: true });
    await mkdir(join(root, meta.id, 'journal.ndjson'));
    await expect(
      store.edit(meta.id, opened.version, [{ op: 'set', key: 0, column: 1, value: 'lost' }]),
    ).rejects.toThrow(/EISDIR|directory/);
    expect(edited).toEqual([]);
    await rm(join(root, meta.id, 'journal.ndjson'), { recursive: true });
    await store.edit(meta.id, opened.version, [{ op: 'set', key: 0, column: 1, value: '11.00' }]);
    expect(edited[0]?.changes.cells).toEqual([
      { key: 0, row: 2, column: 'Amount', from: '10.00', to: '11.00' },
    ]);
    // What open() answered is the reader's: edits never change it.
    expect(opened).toEqual(shown);
  });
});
