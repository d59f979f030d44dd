// Upload benchmark: a validated 100k-row workspace to the upload host's 204, time per stage
// (validate, build, gzip, intent, upload), and pako against node:zlib for the gzip step side by
// side (time and the longest event-loop stall while it runs). Runs against the in-process emulator.
// Usage: node scripts/bench-upload.mjs [--rows 100000]
import { build } from 'esbuild';
import { rawText } from './esbuildRawText.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--rows');
const rows = at === -1 ? 100_000 : Number(process.argv[at + 1]);

// The services are TypeScript: bundle the pieces the benchmark drives into one module first.
const dir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
const bundle = join(dir, 'bench.mjs');
await build({
  stdin: {
    contents: `
      export { startEmulator } from './emulator/server';
      export { validateWorkspace } from './electron/services/upload/prepare';
      export { gzipBulkFile } from './electron/services/upload/compress';
      export { serializeBulkFile } from './shared/bulk-file/serializeBulkFile';
      export { ServiceClient } from './electron/services/api/serviceClient';
      export { TokenClient } from './electron/services/api/tokenClient';
      export { createUploadServices } from './electron/services/upload';
      export { EventBus } from './electron/services/core/eventBus';
    `,
    resolveDir: root,
    loader: 'ts',
  },
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'silent',
  plugins: [rawText],
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
});
const m = await import(pathToFileURL(bundle).href);
const pako = await import('pako');

/** Runs `work` while a 1 ms timer watches the event loop; returns its time and the longest gap between ticks. */
async function watched(work) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  // One more turn, so a stall that lasted until the end is seen by the timer.
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  longest = Math.max(longest, performance.now() - last - 5);
  return { value, ms, stall: longest };
}

const emu = await m.startEmulator({ port: 0, uploadPort: 0, timeScale: 0, quiet: true });
try {
  const info = await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json();
  const recipients = info.samples.causesInGoodStanding.map((c) => c.id);
  const workspace = {
    id: 'bench-000000000001',
    name: 'bench',
    createdAt: '',
    updatedAt: '',
    state: 'ready',
    source: {
      fileName: 'bench.xlsx',
      format: 'xlsx',
      sheet: 'S',
      headerRow: 1,
      headerRowCount: 1,
      totalsRow: null,
      skippedBlankRows: 0,
      warnings: [],
    },
    counts: null,
    headers: ['Charity ID', 'Amount', 'Currency', 'Employee', 'Donor', 'Email'],
    rows: Array.from({ length: rows }, (_, i) => ({
      key: i + 1,
      rowNumber: i + 2,
      cells: [
        recipients[i % recipients.length],
        `${(i % 500) + 1}.${String(i % 100).padStart(2, '0')}`,
        'USD',
        `EMP-${i}`,
        `Donor ${i}`,
        `donor${i}@example.com`,
      ],
    })),
    nextKey: rows + 1,
    mapping: {
      template: {
        columns: {
          'Charity ID': 'recipientId',
          Amount: 'amount',
          Currency: 'currencyCode',
          Employee: 'metadata.employee',
          Donor: 'donor.fullName',
          Email: 'donor.email',
        },
        amountUnit: 'major',
      },
      numberStyle: 'dot-decimal',
      reference: { enabled: true, key: 'ddRef' },
    },
    version: 0,
  };

  const stages = [];
  const validate = await watched(async () => m.validateWorkspace(workspace));
  stages.push(['validate (shared rules, every row)', validate]);
  const donations = validate.value.ready.map((r) => r.donation);
  const buildJson = await watched(async () => {
    let chars = 0;
    for (const chunk of m.serializeBulkFile(donations)) chars += chunk.length;
    return chars;
  });
  stages.push([`build alone (JSON, ${(buildJson.value / 1e6).toFixed(1)}M chars)`, buildJson]);
  const zlib = await watched(() => m.gzipBulkFile(donations));
  stages.push([`gzip node:zlib streamed (${(zlib.value.gz.length / 1e6).toFixed(1)} MB)`, zlib]);
  const pakoRun = await watched(async () => {
    const text = [...m.serializeBulkFile(donations)].join('');
    return pako.gzip(text, { level: 6 });
  });

  const tokens = new m.TokenClient({
    tokenUrl: emu.tokenUrl,
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
  });
  const env = {
    info: {
      id: 'offline',
      label: 'bench',
      baseUrl: emu.apiBaseUrl,
      tokenUrl: emu.tokenUrl,
      programUrl: '',
      emulated: true,
    },
    tokens,
  };
  const client = new m.ServiceClient(async () => env);
  await tokens.obtain();
  const intent = await watched(() => client.createIntent());
  stages.push(['intent (POST /donations/bulk-intents)', intent]);
  const upload = await watched(() =>
    client.uploadFile(intent.value.attributes.url, intent.value.attributes.fields, zlib.value.gz),
  );
  if (upload.value.kind !== 'uploaded') throw new Error(`upload ended ${JSON.stringify(upload.value)}`);
  stages.push(['upload (multipart POST → 204)', upload]);

  // The same workspace through the upload service itself (upload.start), timed from its progress events.
  const dataDir = join(dir, 'data');
  const events = new m.EventBus();
  const firstSeen = new Map();
  events.subscribe((name, payload) => {
    if (name === 'upload.progress' && !firstSeen.has(payload.stage))
      firstSeen.set(payload.stage, performance.now());
  });
  const services = m.createUploadServices({
    dataDir,
    environments: { resolve: async () => env },
    workspaces: { read: async () => workspace },
    events,
    platform: {
      mode: 'cli',
      dataDir,
      appVersion: 'bench',
      assetsDir: dataDir,
      secretBox: null,
      openExternal: async () => {},
    },
  });
  const engineStart = performance.now();
  const engine = await watched(() =>
    services.handlers['upload.start']({ workspaceId: workspace.id }, { transport: 'cli' }),
  );
  const engineEnd = performance.now();
  await services.close();
  if (engine.value.upload.intents.at(-1)?.state !== 'UPLOADED')
    throw new Error('upload.start did not reach UPLOADED');

  console.log(
    `Upload of ${rows.toLocaleString('en')} rows, validated workspace → 204 (Node ${process.version})`,
  );
  let total = 0;
  for (const [name, r] of stages) {
    total += r.ms;
    console.log(
      `  ${name.padEnd(46)} ${r.ms.toFixed(0).padStart(6)} ms   longest event-loop stall ${r.stall.toFixed(0).padStart(5)} ms`,
    );
  }
  console.log(`  ${'total'.padEnd(46)} ${total.toFixed(0).padStart(6)} ms`);
  const order = ['validating', 'building', 'compressing', 'creating-intent', 'uploading', 'uploaded'];
  const marks = order.filter((st) => firstSeen.has(st)).map((st) => [st, firstSeen.get(st)]);
  console.log(
    `upload.start end to end (validate, build + gzip streamed, keep the file, ledger, intent, upload): ${(engineEnd - engineStart).toFixed(0)} ms, longest event-loop stall ${engine.stall.toFixed(0)} ms`,
  );
  marks.forEach(([stage, at], i) => {
    const next = i + 1 < marks.length ? marks[i + 1][1] : engineEnd;
    console.log(`  ${stage.padEnd(46)} ${(next - at).toFixed(0).padStart(6)} ms`);
  });
  console.log('gzip level 6 of the same bulk file:');
  console.log(
    `  node:zlib (streamed, thread pool)  ${zlib.ms.toFixed(0).padStart(6)} ms, ${(zlib.value.gz.length / 1e6).toFixed(2)} MB, longest stall ${zlib.stall.toFixed(0)} ms`,
  );
  console.log(
    `  pako (one string, this thread)     ${pakoRun.ms.toFixed(0).padStart(6)} ms, ${(pakoRun.value.length / 1e6).toFixed(2)} MB, longest stall ${pakoRun.stall.toFixed(0)} ms`,
  );
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
