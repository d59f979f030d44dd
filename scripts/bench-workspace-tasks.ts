// The tasks `scripts/bench-workspace.mjs` times, each in a process of its own so its peak memory is
// its own: node tasks.cjs <task> <folder> <shape|id>. Prints one JSON line of figures.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startDesk } from '../electron/services';
import { WorkspaceStore } from '../electron/services/workspaces/workspaceStore';
import { DEFAULT_REFERENCE_KEY } from '../shared/mapping';
import type { WorkspaceRow } from '../shared/contract';

const SHAPES: Record<string, { rows: number; width: number; cell: number }> = {
  wide: { rows: 30_000, width: 100, cell: 190 },
  tall: { rows: 1_048_576, width: 14, cell: 10 },
};
const [task = '', folder = '', arg = ''] = process.argv.slice(2);
const source = {
  fileName: 'bench.csv',
  format: 'csv',
  sheet: 'bench',
  headerRow: 1,
  headerRowCount: 1,
  totalsRow: null,
  skippedBlankRows: 0,
  warnings: [],
};

function rowsOf(shape: { rows: number; width: number; cell: number }): WorkspaceRow[] {
  const base = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil(shape.cell / 36) + 1);
  return Array.from({ length: shape.rows }, (_, r) => ({
    key: r,
    rowNumber: r + 2,
    cells: Array.from({ length: shape.width }, (_, c) => {
      const lead = `${r}.${c}:`;
      return lead + base.slice((r + c) % 36, ((r + c) % 36) + Math.max(0, shape.cell - lead.length));
    }),
  }));
}

const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function main(): Promise<Record<string, number | string>> {
  const store = new WorkspaceStore(folder);
  if (task === 'save') {
    const shape = SHAPES[arg];
    if (!shape) throw new Error(`no shape ${arg}`);
    const rows = rowsOf(shape);
    const started = performance.now();
    const created = await store.create({
      name: arg,
      source,
      headers: Array.from({ length: shape.width }, (_, c) => `Column ${c + 1}`),
      rows,
      mapping: null,
    });
    return { id: created.id, seconds: (performance.now() - started) / 1000, peakMb: peakMb() };
  }
  if (task === 'reopen') {
    const started = performance.now();
    const opened = await store.open(arg);
    return { rows: opened.rows.length, seconds: (performance.now() - started) / 1000, peakMb: peakMb() };
  }
  if (task === 'edit') {
    // The workspace open, as in the app; one cell changed (a journal append, timed), then folded in
    // as the next open does: what that writes is one chunk and the manifest, counted in bytes.
    await store.open(arg);
    const files = () => new Set(readdirSync(join(folder, arg)));
    const before = files();
    const started = performance.now();
    const { version } = await store.edit(arg, 0, [{ op: 'set', key: 12_345, column: 3, value: 'changed' }]);
    const seconds = (performance.now() - started) / 1000;
    await store.open(arg);
    const written = [...files()]
      .filter((f) => !before.has(f) || f === 'manifest.json')
      .reduce((sum, f) => sum + statSync(join(folder, arg, f)).size, 0);
    return { version, seconds, foldWrittenMb: written / 1e6, peakMb: peakMb() };
  }
  if (task === 'upload') {
    // The upload path alone, without reading a spreadsheet: the workspace the CLI's `upload` makes
    // from 30,000 rows of 99 metadata values of 190 characters (plus the row reference), then
    // upload.start to the Offline sandbox, as `donation-desk upload` runs it.
    const started = performance.now();
    const desk = await startDesk({
      mode: 'browser',
      dataDir: folder,
      appVersion: '0.0.0',
      assetsDir: join(__dirname, '..', 'assets'),
      secretBox: null,
      openExternal: async () => undefined,
      env: {},
    });
    const ctx = { transport: 'cli' as const };
    const metaColumns = Array.from({ length: 99 }, (_, i) => `Meta ${i + 1}`);
    const filler = 'abcdefghijklmnopqrstuvwxyz'.repeat(8);
    const rows = Array.from({ length: 30_000 }, (_, r) => ({
      key: r + 1,
      rowNumber: r + 2,
      cells: [
        `250-${100000 + (r % 5000)}`,
        `${(r % 90) + 10}.50`,
        'USD',
        ...metaColumns.map((_, c) => `${r}-${c}-${filler}`.slice(0, 190)),
      ],
    }));
    const template = {
      columns: {
        'Charity ID': 'recipientId',
        Amount: 'amount',
        Currency: 'currencyCode',
        ...Object.fromEntries(metaColumns.map((c, i) => [c, `metadata.m${i + 1}`])),
      },
    };
    const created = await desk.services['workspace.create'](
      {
        name: 'Metadata at the limits',
        source: { ...source, fileName: 'metadata.csv' },
        headers: ['Charity ID', 'Amount', 'Currency', ...metaColumns],
        rows,
        mapping: { template, numberStyle: 'auto', reference: { enabled: true, key: DEFAULT_REFERENCE_KEY } },
      },
      ctx,
    );
    rows.length = 0;
    const createdAt = (performance.now() - started) / 1000;
    const result = await desk.services['upload.start']({ workspaceId: created.id, skipInvalid: true }, ctx);
    const seconds = (performance.now() - started) / 1000;
    await desk.close();
    return {
      state: result.upload.state,
      problems: result.problems.length,
      createSeconds: createdAt,
      seconds,
      peakMb: peakMb(),
    };
  }
  throw new Error(`no task ${task}`);
}

main().then(
  (figures) => console.log(JSON.stringify(figures)),
  (e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);
