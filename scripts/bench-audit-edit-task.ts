// The task behind bench-audit-edit.mjs (bundled by it): see there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAuditServices } from '../electron/services/audit';
import { closeDatabase } from '../electron/services/db/deskDatabase';
import { WorkspaceStore } from '../electron/services/workspaces/workspaceStore';

const rows = Number(process.argv[2] ?? 100_000);
const edits = Number(process.argv[3] ?? 300);
const withAudit = process.argv[4] === 'audit';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'dd-bench-audit-'));
  try {
    const audit = withAudit
      ? createAuditServices({
          dataDir,
          identity: { person: () => 'bench', computer: () => 'bench' },
          environment: () => 'offline',
        })
      : null;
    const store = new WorkspaceStore(join(dataDir, 'workspaces'), audit?.workspaceObserver ?? null);
    const headers = ['Charity ID', 'Amount', 'Currency', 'Employee', 'Email', 'Note', 'Dept', 'Ref'];
    const meta = await store.create({
      name: 'bench',
      source: {
        fileName: 'b.xlsx',
        format: 'xlsx',
        sheet: 'S',
        headerRow: 1,
        headerRowCount: 1,
        totalsRow: null,
        skippedBlankRows: 0,
        warnings: [],
      },
      headers,
      rows: Array.from({ length: rows }, (_, i) => ({
        key: i,
        rowNumber: i + 2,
        cells: [`c${i}`, '10.00', 'USD', `E${i}`, `e${i}@example.com`, 'note', 'dept', `R${i}`],
      })),
      mapping: null,
    });
    // As in the app: the grid edits the workspace it just created, without opening it again, once
    // the person has had a second to find the cell.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const firstStarted = performance.now();
    let version = (
      await store.edit(meta.id, meta.version, [{ op: 'set', key: 0, column: 1, value: '11.00' }])
    ).version;
    const first = performance.now() - firstStarted;
    const single: number[] = [];
    for (let i = 0; i < edits; i++) {
      const started = performance.now();
      version = (
        await store.edit(meta.id, version, [
          { op: 'set', key: (i * 7919) % rows, column: 1, value: `${i}.00` },
        ])
      ).version;
      single.push(performance.now() - started);
    }
    const bulk: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const cells = Array.from({ length: 1000 }, (_, k) => ({
        op: 'set' as const,
        key: (k * 97 + i) % rows,
        column: 2,
        value: i % 2 ? 'EUR' : 'USD',
      }));
      version = (await store.edit(meta.id, version, cells)).version;
      bulk.push(performance.now() - started);
    }
    console.log(JSON.stringify({ withAudit, rows, first, single: median(single), bulk1000: median(bulk) }));
  } finally {
    closeDatabase(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
void main();
