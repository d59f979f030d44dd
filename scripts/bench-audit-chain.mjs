// The audit trail's hash chain (issue 18): one durable append, chained as the app writes it, against
// a plain INSERT into the same table as before the chain, alternated; then `audit verify` of a trail
// of N entries (default 1,000,000): time and how much the process grew while checking (the check
// reads a page at a time, so this stays small at any N). Nothing fails on a slow figure.
//
// Usage: node scripts/bench-audit-chain.mjs [--entries N] [--appends A]
import { ms, numberArg, withBenchTask } from './benchTask.mjs';

const entries = numberArg('--entries', 1_000_000);
const appends = numberArg('--appends', 300);

await withBenchTask('bench-audit-chain-task.ts', async (run) => {
  const f = run([entries, appends]);
  console.log(
    `one durable append: chained ${ms(f.chainedMedianMs)}, plain INSERT as before ${ms(f.plainMedianMs)} (medians of ${appends})`,
  );
  console.log(`filling ${entries.toLocaleString('en')} entries: ${f.fillPerEntryUs.toFixed(1)} µs per entry`);
  console.log(
    `audit verify of ${f.check.entries.toLocaleString('en')} entries: ${(f.verifyMs / 1000).toFixed(1)} s, process grew ${f.verifyRssGrowthMb.toFixed(0)} MB while checking (read 2,000 entries a page: the growth should not rise with the size of the trail); whole: ${f.check.whole}`,
  );
});
