// Emulator benchmark: a 100k-donation bulk file validated and processed, then 200 concurrent
// GET /donations page requests. Run after `node scripts/build-node.mjs`; it loads the built bundle.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'out/emulator/index.cjs');
if (!existsSync(bundle)) {
  console.error('out/emulator/index.cjs is missing: run `node scripts/build-node.mjs` first.');
  process.exit(1);
}
const { startEmulator } = createRequire(import.meta.url)(bundle);

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CONCURRENT = 200;
const PAGE_SIZE = 100;

const ms = (start) => performance.now() - start;
const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });
function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// BENCH_DATA_DIR=<dir> also measures persistence (the donation log and snapshot) into that folder.
const dataDir = process.env.BENCH_DATA_DIR;
const emu = await startEmulator({ timeScale: 0, quiet: true, seed: 42, ...(dataDir ? { dataDir } : {}) });
try {
  const auth = {};
  // Tokens live 3600 virtual seconds; the benchmark jumps a day ahead, so it renews like a client would.
  const renewToken = async () => {
    const res = await fetch(emu.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: emu.clientId,
        client_secret: emu.clientSecret,
      }),
    });
    auth.authorization = `Bearer ${(await res.json()).access_token}`;
  };
  await renewToken();
  const info = await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json();
  const causes = info.samples.causesInGoodStanding.map((c) => c.id);

  let t = performance.now();
  const data = Array.from({ length: ROWS }, (_, i) => ({
    type: 'donations',
    attributes: {
      destination: { recipientId: causes[i % causes.length] },
      funds: {
        paymentType: 'DONATION_REPORT',
        currencyCode: 'USD',
        amount: 100 + (i % 5000),
        source: 'COMPANY',
      },
      donor: { receipted: i % 3 === 0, fullName: `Donor ${i}`, email: `donor${i}@example.com` },
      metadata: { row: String(i + 1), costCentre: `CC-${i % 97}` },
    },
  }));
  const json = JSON.stringify({ data });
  const file = await promisify(gzip)(json);
  const buildMs = ms(t);

  const intent = (
    await (await fetch(`${emu.apiBaseUrl}/donations/bulk-intents`, { method: 'POST', headers: auth })).json()
  ).data;
  t = performance.now();
  const form = new FormData();
  for (const [name, value] of Object.entries(intent.attributes.fields)) form.append(name, value);
  form.append('file', new Blob([file], { type: 'application/gzip' }), 'donations.json.gz');
  const uploadRes = await fetch(intent.attributes.url, { method: 'POST', body: form });
  if (uploadRes.status !== 204)
    throw new Error(`upload failed: ${uploadRes.status} ${await uploadRes.text()}`);
  const uploadMs = ms(t);

  const status = async () =>
    (await (await fetch(`${emu.apiBaseUrl}/donations/bulk-intents/${intent.id}`, { headers: auth })).json())
      .data;
  // Validation falls due 60-180 virtual seconds after upload; processing after that.
  t = performance.now();
  await emu.advance(180);
  const validateMs = ms(t);
  const validated = await status();
  // Pickup may follow validation within the same jump; it costs nothing, so either state is fine here.
  if (!['VALIDATED', 'PROCESSING'].includes(validated.attributes.status)) {
    throw new Error(`expected VALIDATED, got ${validated.attributes.status}`);
  }
  t = performance.now();
  await emu.advance(24 * 3600);
  const processMs = ms(t);
  await renewToken();
  const processed = await status();
  if (processed.attributes.status !== 'PROCESSED')
    throw new Error(`expected PROCESSED, got ${processed.attributes.status}`);

  // Walk the whole bulk once, keeping every cursor for the concurrent phase.
  t = performance.now();
  const cursors = [];
  let next = `${emu.apiBaseUrl}/donations?filter[bulk]=${intent.id}&page[size]=250`;
  let walked = 0;
  while (next) {
    const page = await (await fetch(next, { headers: auth })).json();
    walked += page.meta.count;
    cursors.push(new URL(page.links.next).searchParams.get('page[after]'));
    next = page.meta.page.rangeTruncated ? page.links.next : undefined;
  }
  const walkMs = ms(t);
  if (walked !== ROWS) throw new Error(`walked ${walked} donations, expected ${ROWS}`);

  t = performance.now();
  const latencies = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const cursor = cursors[(i * 7) % cursors.length];
      const status = i % 4 === 0 ? '&filter[status]=CLEARED' : '';
      const started = performance.now();
      const res = await fetch(
        `${emu.apiBaseUrl}/donations?filter[bulk]=${intent.id}&page[size]=${PAGE_SIZE}&page[after]=${cursor}${status}`,
        { headers: auth },
      );
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`page request failed: ${res.status}`);
      return ms(started);
    }),
  );
  const concurrentMs = ms(t);
  latencies.sort((a, b) => a - b);

  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log(`emulator benchmark (${fmt(ROWS)} donations, Node ${process.version})`);
  console.log(
    `  bulk file: ${fmt(json.length / 1e6)} MB JSON, ${fmt(file.length / 1e6)} MB gzip, built in ${fmt(buildMs)} ms`,
  );
  console.log(`  upload (multipart to upload host): ${fmt(uploadMs)} ms`);
  console.log(`  validation: ${fmt(validateMs)} ms (${fmt(ROWS / (validateMs / 1000))} rows/s)`);
  console.log(
    `  processing (donations created): ${fmt(processMs)} ms (${fmt(ROWS / (processMs / 1000))} rows/s)`,
  );
  console.log(
    `  list walk, page[size]=250: ${cursors.length} pages in ${fmt(walkMs)} ms (${fmt(ROWS / (walkMs / 1000))} rows/s)`,
  );
  console.log(
    `  ${CONCURRENT} concurrent GET /donations (page[size]=${PAGE_SIZE}): ${fmt(concurrentMs)} ms total, ` +
      `p50 ${fmt(percentile(latencies, 50))} ms, p95 ${fmt(percentile(latencies, 95))} ms, max ${fmt(latencies[latencies.length - 1])} ms`,
  );
  console.log(`  peak RSS: ${fmt(rssMb)} MB`);
} finally {
  const t = performance.now();
  await emu.close();
  if (dataDir) console.log(`  close with state saved to ${dataDir}: ${fmt(ms(t))} ms`);
}
