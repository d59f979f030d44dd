import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkspaceRow } from '../../../shared/contract';
import { ChunkCutter, chunkTexts } from './rowChunks';
import { WorkspaceStore } from './workspaceStore';

const source = {
  fileName: 'wide.csv',
  format: 'csv',
  sheet: 'Sheet1',
  headerRow: 1,
  headerRowCount: 1,
  totalsRow: null,
  skippedBlankRows: 0,
  warnings: [],
};

/** Rows wide and long enough to fill several chunks by characters and by rows. */
const rows: WorkspaceRow[] = Array.from({ length: 9_000 }, (_, i) => ({
  key: i + 1,
  rowNumber: i + 2,
  cells: [`250-${i}`, `${i}.00`, 'EUR', ...(i % 3 === 0 ? ['x'.repeat(4_000), `é"${i}`] : [])],
}));

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('rows handed over one at a time', () => {
  it('are cut into the same chunks as the whole list', () => {
    const cutter = new ChunkCutter();
    for (const row of rows) cutter.add(row);
    cutter.end();
    const whole = [...chunkTexts(rows)];
    expect(whole.length).toBeGreaterThan(2);
    expect(cutter.full).toEqual(whole);
  });

  it('make the same workspace as the list, written chunk by chunk as they come, the totals row added at the end', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ws-streamed-'));
    dirs.push(root);
    const store = new WorkspaceStore(root);
    const fromList = await store.create({
      name: 'List',
      source,
      headers: ['a', 'b', 'c', 'd', 'e'],
      rows,
      mapping: null,
    });
    let written = 0;
    const streamed = await store.create({
      name: 'Streamed',
      source,
      headers: ['a', 'b', 'c', 'd', 'e'],
      mapping: null,
      writeRows: async (writer) => {
        for (const [i, row] of rows.entries()) {
          writer.add({ rowNumber: row.rowNumber, cells: row.cells });
          if (i % 1_000 === 999) {
            await writer.flush();
            const folder = (await readdir(root)).find((d) => d !== fromList.id) as string;
            const files = await readdir(join(root, folder));
            written = Math.max(written, files.filter((f) => f.startsWith('rows-')).length);
          }
        }
        return { totalsRow: { rowNumber: 9_002, cells: ['Total', '', '', '', ''] } };
      },
    });
    // Chunks went to disk while rows were still coming.
    expect(written).toBeGreaterThan(0);
    expect(streamed.nextKey).toBe(fromList.nextKey);
    const a = await store.read(fromList.id);
    const b = await store.read(streamed.id);
    expect(b.rows).toEqual(a.rows);
    expect(b.source.totalsRow).toEqual({ rowNumber: 9_002, cells: ['Total', '', '', '', ''] });
    const chunkFiles = (await readdir(join(root, streamed.id))).filter((f) => f.startsWith('rows-'));
    expect(chunkFiles.length).toBe(
      (await readdir(join(root, fromList.id))).filter((f) => f.startsWith('rows-')).length,
    );
    const meta = JSON.parse(await readFile(join(root, streamed.id, 'meta.json'), 'utf8'));
    expect(meta.source.totalsRow.cells[0]).toBe('Total');
  });
});
