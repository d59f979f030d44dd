import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../../electron/services/workspaces/workspaceStore';
import type { WorkspaceRow } from '../../../shared/contract';

/*
 * The shape of issue 19: 30,000 rows of 100 metadata values of 190 characters, 570 million
 * characters in all, more than one JavaScript string holds. Kept in one JSON text, it could not
 * be saved at all ("Invalid string length").
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function rows(): WorkspaceRow[] {
  const filler = 'abcdefghijklmnopqrstuvwxyz'.repeat(8);
  return Array.from({ length: 30_000 }, (_, r) => ({
    key: r,
    rowNumber: r + 2,
    cells: Array.from({ length: 100 }, (_, c) => `${r}-${c}-${filler}`.slice(0, 190)),
  }));
}

describe('a workspace of 30,000 rows × 100 cells of 190 characters', () => {
  it('saves, reopens in a new process’s store, and folds a one-cell edit into one chunk', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desk-huge-'));
    dirs.push(root);
    const source = {
      fileName: 'metadata.csv',
      format: 'csv',
      sheet: 'metadata',
      headerRow: 1,
      headerRowCount: 1,
      totalsRow: null,
      skippedBlankRows: 0,
      warnings: [],
    };
    const created = await new WorkspaceStore(root).create({
      name: 'Metadata at the limits',
      source,
      headers: Array.from({ length: 100 }, (_, c) => `Meta ${c + 1}`),
      rows: rows(),
      mapping: null,
    });
    const dir = join(root, created.id);
    const chunksBefore = (await readdir(dir)).filter((f) => f.startsWith('rows-'));
    expect(chunksBefore.length).toBeGreaterThan(60);

    const store = new WorkspaceStore(root);
    let opened = await store.open(created.id);
    expect(opened.rows).toHaveLength(30_000);
    expect(opened.rows[29_999]?.cells[99]).toBe(
      `29999-99-${'abcdefghijklmnopqrstuvwxyz'.repeat(8)}`.slice(0, 190),
    );
    opened = null as never;

    await store.edit(created.id, 0, [{ op: 'set', key: 15_000, column: 50, value: 'changed' }]);
    const again = await new WorkspaceStore(root).open(created.id);
    expect(again.rows[15_000]?.cells[50]).toBe('changed');
    const chunksAfter = (await readdir(dir)).filter((f) => f.startsWith('rows-'));
    expect(chunksAfter.filter((f) => !chunksBefore.includes(f))).toHaveLength(1);
  }, 240_000);
});
