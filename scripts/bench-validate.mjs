// Row validation throughput, side by side in one run: the shared hand-written rules
// (validateDonation), the zod schema of the same attributes (JIT, as in main and the CLI), zod
// jitless (as in the renderer, whose CSP forbids eval), and the whole row path (applyMapping).
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-validate-'));
const bundle = join(dir, 'rules.mjs');
await build({
  stdin: {
    contents: `export * from './shared/donation/index.ts'; export * from './shared/mapping/index.ts'; export { z, config } from 'zod';`,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: bundle,
  logLevel: 'error',
});
const m = await import(pathToFileURL(bundle).href);
const N = 100_000;
const rows = Array.from({ length: N }, (_, i) => ({
  destination: { recipientId: `840-${String(100000000 + (i % 999)).padStart(9, '0')}` },
  funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'USD', amount: 100 + (i % 5000) },
  donor: { fullName: `Person ${i}`, email: `person${i}@acme.example`, receipted: i % 2 === 0 },
  metadata: { employeeId: `E-${i}`, department: 'Finance' },
}));
const headers = ['Charity ID', 'Amount', 'Currency', 'Name', 'Email', 'Employee ID'];
const cells = rows.map((r) => [
  r.destination.recipientId,
  (r.funds.amount / 100).toFixed(2),
  'USD',
  r.donor.fullName,
  r.donor.email,
  r.metadata.employeeId,
]);
const template = {
  columns: {
    'Charity ID': 'recipientId',
    Amount: 'amount',
    Currency: 'currencyCode',
    Name: 'donor.fullName',
    Email: 'donor.email',
    'Employee ID': 'metadata.employeeId',
  },
  amountUnit: 'major',
};
const compiled = m.compileMapping(headers, template);

function time(label, fn) {
  fn(); // warm up
  const runs = [];
  for (let k = 0; k < 3; k++) {
    const started = performance.now();
    fn();
    runs.push((performance.now() - started) / 1000);
  }
  const seconds = [...runs].sort((a, b) => a - b)[1];
  console.log(
    `  ${label.padEnd(58)} ${seconds.toFixed(3).padStart(7)} s  ${Math.round(N / seconds)
      .toLocaleString('en')
      .padStart(11)} rows/s  (runs ${runs.map((r) => r.toFixed(3)).join(' / ')} s)`,
  );
}
console.log(`Validation of ${N.toLocaleString('en')} donations (median of 3 runs, side by side)`);
time('validateDonation (hand-written shared rules)', () => rows.forEach((r) => m.validateDonation(r)));
// The yardstick the rules are held to: the engine's own JSON.stringify of the same rows (the rules
// should take no longer than about one and a half times it).
time('JSON.stringify of the same rows (yardstick)', () => rows.forEach((r) => JSON.stringify(r)));
time('fingerprintDonation (duplicate check)', () => rows.forEach((r) => m.fingerprintDonation(r)));
time('zod donationAttributesSchema (JIT)', () =>
  rows.forEach((r) => m.donationAttributesSchema.safeParse(r)),
);
m.config({ jitless: true });
time('zod donationAttributesSchema (jitless, as in the renderer)', () =>
  rows.forEach((r) => m.donationAttributesSchema.safeParse(r)),
);
time('applyMapping (cells → donation → rules)', () =>
  cells.forEach((c) => m.applyMapping(headers, c, compiled)),
);
rmSync(dir, { recursive: true, force: true });
