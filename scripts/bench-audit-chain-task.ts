// The task behind bench-audit-chain.mjs (bundled by it): see there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AuditStore, type NewAuditEntry } from '../electron/services/audit/auditStore';
import { DeskDatabase } from '../electron/services/db/deskDatabase';

const entries = Number(process.argv[2] ?? 1_000_000);
const appends = Number(process.argv[3] ?? 300);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const entry = (n: number): NewAuditEntry => ({
  at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  person: 'bench',
  computer: 'BENCH-PC',
  environment: 'production',
  action: 'edit',
  workspaceId: `ws-${n % 50}`,
  details: { version: n, cells: [{ row: n % 1000, column: 'Amount', from: '10.00', to: '12.00' }] },
});

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'dd-bench-chain-'));
  try {
    const db = DeskDatabase.open(dataDir);
    const store = new AuditStore(db);
    // The audit table as before version 6: same columns and indexes, no hash, SQLite picks the seq.
    db.db.exec(`CREATE TABLE bench_plain (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, person TEXT NOT NULL,
      computer TEXT NOT NULL, environment TEXT NOT NULL, action TEXT NOT NULL, workspace_id TEXT,
      upload_id TEXT, donation_id TEXT, details TEXT NOT NULL);
      CREATE INDEX bench_plain_at ON bench_plain (at);
      CREATE INDEX bench_plain_ws ON bench_plain (workspace_id, seq) WHERE workspace_id IS NOT NULL;
      CREATE INDEX bench_plain_person ON bench_plain (person, seq);`);
    // One durable append at a time, as the app writes them: chained, then as before the chain (a
    // plain INSERT, its own commit), alternated.
    const chained: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < appends; i++) {
      let started = performance.now();
      store.insert(entry(i));
      chained.push(performance.now() - started);
      started = performance.now();
      db.run(
        `INSERT INTO bench_plain (at, person, computer, environment, action, workspace_id, details)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ...(() => {
          const e = entry(i);
          return [
            e.at,
            e.person,
            e.computer,
            e.environment,
            e.action,
            e.workspaceId ?? null,
            JSON.stringify(e.details),
          ];
        })(),
      );
      plain.push(performance.now() - started);
    }
    // Then a trail of `entries`, written in large transactions, and checked whole.
    const startedFill = performance.now();
    for (let n = appends; n < entries;) {
      const until = Math.min(entries, n + 50_000);
      db.transaction(() => {
        for (; n < until; n++) store.insert(entry(n));
      });
    }
    const fill = performance.now() - startedFill;
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const startedVerify = performance.now();
    const check = await store.verify();
    const verify = performance.now() - startedVerify;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    db.close();
    console.log(
      JSON.stringify({
        chainedMedianMs: median(chained),
        plainMedianMs: median(plain),
        fillPerEntryUs: (fill * 1000) / Math.max(1, entries - appends),
        verifyMs: verify,
        verifyRssGrowthMb: (peak - rssBefore) / 1e6,
        check,
      }),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
