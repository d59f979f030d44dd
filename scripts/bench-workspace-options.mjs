// The two ways of storing a workspace that is too big for one string, measured on the same rows:
// (a) rows in the data folder's database, in pages of rows (one SQLite row per page, WAL,
//     synchronous=FULL as desk.db runs), and (b) chunk files in the workspace's folder with a
//     manifest written atomically. For each: save, reopen (every row back in memory) and a one-cell
//     edit folded in (one page or one chunk rewritten). Each operation runs in a fresh process and
//     reports its time and peak resident memory; figures are the median of the runs.
//
//   node scripts/bench-workspace-options.mjs [--runs 3] [--shape wide|tall|both]
// Decision: docs/decisions/0119-workspaces-in-chunk-files.md
import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  rmSync,
  mkdirSync,
  openSync,
  writeSync,
  fsyncSync,
  closeSync,
  renameSync,
} from 'node:fs';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SHAPES = {
  wide: { rows: 30_000, width: 100, cell: 190, label: '30,000 rows × 100 cells of 190 characters' },
  tall: { rows: 1_048_576, width: 14, cell: 10, label: '1,048,576 rows × 14 cells of about 10 characters' },
};
const CHUNK_ROWS = 4096;
const CHUNK_CHARS = 8 * 1024 * 1024;

function makeRows({ rows, width, cell }) {
  const out = new Array(rows);
  const base = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil(cell / 36) + 1);
  for (let r = 0; r < rows; r++) {
    const cells = new Array(width);
    for (let c = 0; c < width; c++) {
      const lead = `${r}.${c}:`;
      cells[c] = lead + base.slice((r + c) % 36, ((r + c) % 36) + Math.max(0, cell - lead.length));
    }
    out[r] = [r, r + 2, cells];
  }
  return out;
}

/** Rows cut into pages: at most CHUNK_ROWS rows or about CHUNK_CHARS of JSON each. */
function* pages(rows) {
  let page = [];
  let chars = 0;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (page.length && (page.length >= CHUNK_ROWS || chars + text.length > CHUNK_CHARS)) {
      yield `[${page.join(',')}]`;
      page = [];
      chars = 0;
    }
    page.push(text);
    chars += text.length + 1;
  }
  if (page.length) yield `[${page.join(',')}]`;
}

function writeDurable(path, text) {
  const fd = openSync(path, 'w');
  writeSync(fd, text);
  fsyncSync(fd);
  closeSync(fd);
}

function syncDir(dir) {
  const fd = openSync(dir, 'r');
  fsyncSync(fd);
  closeSync(fd);
}

const files = {
  save(dir, rows) {
    mkdirSync(dir, { recursive: true });
    const chunks = [];
    let n = 0;
    for (const text of pages(rows)) {
      const file = `chunk-${n++}.json`;
      writeDurable(join(dir, file), text);
      chunks.push({ file, chars: text.length });
    }
    writeDurable(join(dir, '.manifest.tmp'), JSON.stringify({ chunks }));
    renameSync(join(dir, '.manifest.tmp'), join(dir, 'manifest.json'));
    syncDir(dir);
  },
  reopen(dir) {
    const { chunks } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const rows = [];
    for (const c of chunks)
      for (const row of JSON.parse(readFileSync(join(dir, c.file), 'utf8'))) rows.push(row);
    return rows.length;
  },
  edit(dir) {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const at = Math.floor(manifest.chunks.length / 2);
    const rows = JSON.parse(readFileSync(join(dir, manifest.chunks[at].file), 'utf8'));
    rows[0][2][1] = 'edited';
    const text = JSON.stringify(rows);
    const file = `chunk-e${Date.now()}.json`;
    writeDurable(join(dir, file), text);
    manifest.chunks[at] = { file, chars: text.length };
    writeDurable(join(dir, '.manifest.tmp'), JSON.stringify(manifest));
    renameSync(join(dir, '.manifest.tmp'), join(dir, 'manifest.json'));
    syncDir(dir);
  },
};

async function database(dir) {
  const { DatabaseSync } = await import('@photostructure/sqlite');
  mkdirSync(dir, { recursive: true });
  const db = new DatabaseSync(join(dir, 'desk.db'));
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;');
  db.exec(
    'CREATE TABLE IF NOT EXISTS workspace_pages (workspace TEXT, page INTEGER, rows TEXT, PRIMARY KEY (workspace, page))',
  );
  return db;
}

const sqlite = {
  async save(dir, rows) {
    const db = await database(dir);
    const insert = db.prepare('INSERT INTO workspace_pages (workspace, page, rows) VALUES (?, ?, ?)');
    db.exec('BEGIN');
    let n = 0;
    for (const text of pages(rows)) insert.run('w', n++, text);
    db.exec('COMMIT');
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
  },
  async reopen(dir) {
    const db = await database(dir);
    const rows = [];
    for (const { rows: text } of db
      .prepare('SELECT rows FROM workspace_pages WHERE workspace = ? ORDER BY page')
      .iterate('w'))
      for (const row of JSON.parse(text)) rows.push(row);
    db.close();
    return rows.length;
  },
  async edit(dir) {
    const db = await database(dir);
    const { n } = db.prepare('SELECT count(*) AS n FROM workspace_pages').get();
    const page = Math.floor(n / 2);
    const rows = JSON.parse(
      db.prepare('SELECT rows FROM workspace_pages WHERE workspace = ? AND page = ?').get('w', page).rows,
    );
    rows[0][2][1] = 'edited';
    db.prepare('UPDATE workspace_pages SET rows = ? WHERE workspace = ? AND page = ?').run(
      JSON.stringify(rows),
      'w',
      page,
    );
    db.close();
  },
};

// A child: one operation of one option on one shape, then its figures on stdout.
if (process.argv[2] === '--child') {
  const [, , , option, op, shapeName, dir] = process.argv;
  const impl = option === 'sqlite' ? sqlite : files;
  const rows = op === 'save' ? makeRows(SHAPES[shapeName]) : null;
  const start = performance.now();
  if (op === 'save') await impl.save(dir, rows);
  else if (op === 'reopen') await impl.reopen(dir);
  else await impl.edit(dir);
  const seconds = (performance.now() - start) / 1000;
  const bytes = readdirSync(dir).reduce((sum, f) => sum + readFileSync(join(dir, f)).byteLength, 0);
  console.log(JSON.stringify({ seconds, peakMb: Math.round(process.resourceUsage().maxRSS / 1024), bytes }));
  process.exit(0);
}

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] || 3) || 3;
const shapeArg = args.includes('--shape') ? args[args.indexOf('--shape') + 1] : 'both';
const shapes = shapeArg === 'both' ? ['wide', 'tall'] : [shapeArg];
const self = fileURLToPath(import.meta.url);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const shape of shapes) {
  console.log(`\n${SHAPES[shape].label}`);
  for (const option of ['sqlite', 'files']) {
    const figures = { save: [], reopen: [], edit: [] };
    let bytes = 0;
    for (let run = 0; run < runs; run++) {
      const dir = mkdtempSync(join(tmpdir(), 'ws-option-'));
      try {
        for (const op of ['save', 'reopen', 'edit']) {
          const child = spawnSync(
            process.execPath,
            ['--max-old-space-size=4096', self, '--child', option, op, shape, join(dir, 'w')],
            {
              encoding: 'utf8',
            },
          );
          if (child.status !== 0) throw new Error(`${option} ${op} failed: ${child.stderr}`);
          const result = JSON.parse(child.stdout.trim().split('\n').pop());
          figures[op].push(result);
          if (op === 'save') bytes = result.bytes;
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const line = (op) =>
      `${op} median ${median(figures[op].map((f) => f.seconds)).toFixed(2)} s, ${median(figures[op].map((f) => f.peakMb))} MB peak` +
      ` (runs: ${figures[op].map((f) => `${f.seconds.toFixed(2)} s/${f.peakMb} MB`).join(', ')})`;
    console.log(
      `  ${option === 'sqlite' ? 'rows in desk.db (pages)' : 'chunk files + manifest'}: ${(bytes / 1e6).toFixed(0)} MB on disk`,
    );
    for (const op of ['save', 'reopen', 'edit']) console.log(`    ${line(op)}`);
  }
}
