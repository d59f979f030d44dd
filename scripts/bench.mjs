// `npm run bench`: every benchmark, one after another, printing figures. Targets are printed next to
// the figures; nothing here fails a build (these machines are shared and noisy).
import { spawnSync } from 'node:child_process';

const quick = process.argv.includes('--quick');
const rows = quick ? '20000' : '100000';
const benches = [
  ['Row validation', ['scripts/bench-validate.mjs']],
  ['Spreadsheet reading (SheetJS vs the app’s reader)', ['scripts/bench-import.mjs', '--rows', rows]],
  ['Import in the app, file to validated grid, and edit latency', ['scripts/bench-ui.mjs', '--rows', rows]],
  [
    'CLI validate at 500,000 rows: time and peak memory',
    ['scripts/bench-cli.mjs', '--rows', quick ? '100000' : '500000'],
  ],
  [
    'CLI validate and build on a 300 MB, 2.83 million-row CSV, read in passes: time and peak memory',
    ['scripts/bench-cli-stream.mjs', '--rows', quick ? '300000' : '2830000', '--runs', quick ? '1' : '3'],
  ],
  [
    'Upload: validated workspace to 204, per stage; pako vs node:zlib',
    ['scripts/bench-upload.mjs', '--rows', rows],
  ],
  ['Offline sandbox: bulk processing and concurrent pages', ['scripts/bench-emulator.mjs']],
  [
    'Audit trail hash chain: one append, and audit verify of a long trail',
    ['scripts/bench-audit-chain.mjs', '--entries', quick ? '100000' : '1000000'],
  ],
  [
    'Workspaces too big for one string: save, reopen, edit; CLI upload of 30,000 × 100 × 190',
    ['scripts/bench-workspace.mjs', '--runs', '3'],
  ],
  [
    'Data folder database at history scale: refresh, first page, month report, size',
    ['scripts/bench-db.mjs', '--donations', quick ? '100000' : '1000000'],
  ],
  [
    'A year of history against the emulator: report --month with refresh, donations --bulk, Reconcile and the report in Chromium',
    ['scripts/bench-db-history.mjs', '--donations', quick ? '100000' : '1000000', '--runs', '3'],
  ],
];
let failed = 0;
for (const [title, args] of benches) {
  console.log(`\n== ${title}`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.log(`(this benchmark stopped with exit code ${result.status})`);
  }
}
process.exit(failed ? 1 : 0);
