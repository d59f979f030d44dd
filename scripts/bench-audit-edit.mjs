// What the audit trail adds to the edit path (issue 14): a durable edit of one cell, and of 1,000
// cells at once, in a workspace of N rows (default 100,000), with and without the audit trail
// listening, and the first edit after the import (with the trail, main reads the workspace once then). Each variant in a fresh process, alternated over several runs; the median edit time of
// each run is printed. Nothing fails on a slow figure: the machine is shared.
//
// Usage: node scripts/bench-audit-edit.mjs [--rows N] [--edits E] [--runs R]
import { ms, numberArg, withBenchTask } from './benchTask.mjs';

const rows = numberArg('--rows', 100_000);
const edits = numberArg('--edits', 300);
const runs = numberArg('--runs', 3);

await withBenchTask('bench-audit-edit-task.ts', async (run) => {
  const figures = { plain: [], audit: [] };
  for (let i = 0; i < runs; i++) {
    for (const variant of ['plain', 'audit']) figures[variant].push(run([rows, edits, variant], variant));
  }
  for (const variant of ['plain', 'audit']) {
    const list = figures[variant];
    console.log(
      `${variant === 'audit' ? 'with audit trail   ' : 'without audit trail'}: first edit 1 s after import ${list.map((f) => ms(f.first)).join(', ')}; one cell ${list.map((f) => ms(f.single)).join(', ')}; 1,000 cells ${list.map((f) => ms(f.bulk1000)).join(', ')}`,
    );
  }
});
