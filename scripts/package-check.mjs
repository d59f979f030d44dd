// Packaging check that needs no download (about 20 s). Run after `npm run build`.
//
// 1. Validates electron-builder.yml against electron-builder's own schema, and checks the settings
//    this project depends on (targets, icons, hardened runtime, fuses).
// 2. Packs `--linux dir` with a stub electronDist: a temp folder whose `electron` "binary" is a small
//    file carrying Electron's fuse sentinel and a fuse wire in Electron's default states. The real
//    Electron binary cannot be downloaded here; electron-builder copies the stub, writes app.asar
//    beside it and flips the fuses in it exactly as it would in the real binary.
// 3. Lists app.asar: the built app is there, and no tests, source maps, .env files, TypeScript
//    sources or node_modules; every module the bundles require is Electron, a Node builtin or a file
//    inside app.asar (nothing is shipped in node_modules, so anything else would fail at start).
// 4. Reads the fuse wire back from the packed executable and compares it with electron-builder.yml.
//
// Usage: node scripts/package-check.mjs [--keep] (keeps the temp folders and prints where).
import { spawnSync } from 'node:child_process';
import { builtinModules, createRequire } from 'node:module';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const started = Date.now();

const results = [];
function check(name, ok, detail = '') {
  results.push({ name, ok: Boolean(ok), detail });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
  return Boolean(ok);
}
function finish() {
  const failed = results.filter((r) => !r.ok).length;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `package-check: ${failed ? 'FAIL' : 'PASS'} — ${results.length - failed} passed, ${failed} failed (${seconds}s)`,
  );
  process.exit(failed ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
console.log('package-check: build output');
const required = ['out/main/index.cjs', 'out/preload/index.cjs', 'out/renderer/index.html'];
const missingBuild = required.filter((f) => !existsSync(join(root, f)));
if (!check('out/ has main, preload and renderer', missingBuild.length === 0, missingBuild.join(', '))) {
  console.log('  Run `npm run build` first.');
  finish();
}

// ---------------------------------------------------------------------------------------------
console.log('package-check: electron-builder.yml');
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config');
const { DebugLogger } = require('builder-util');
let config;
try {
  config = await getConfig(root, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  check('matches the electron-builder schema', true);
} catch (error) {
  check(
    'matches the electron-builder schema',
    false,
    String(error?.message ?? error)
      .split('\n')
      .slice(0, 3)
      .join(' '),
  );
  finish();
}
const targetsOf = (platform) =>
  [config[platform]?.target].flat().map((t) => (typeof t === 'string' ? t : t?.target));
check('appId and productName', config.appId && config.productName === 'Donation Desk', `${config.appId}`);
check('asar on', config.asar === true);
check('Windows target NSIS', targetsOf('win').includes('nsis'));
check('macOS target dmg', targetsOf('mac').includes('dmg'));
check('Linux target AppImage', targetsOf('linux').includes('AppImage'));
check('macOS hardened runtime', config.mac?.hardenedRuntime === true);
check('macOS category finance', config.mac?.category === 'public.app-category.finance');

function pngSize(path) {
  const bytes = readFileSync(path);
  if (bytes.toString('latin1', 1, 4) !== 'PNG') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
const iconPng = join(root, config.linux?.icon ?? 'assets/icon.png');
const size = existsSync(iconPng) ? pngSize(iconPng) : null;
check(
  'PNG icon is square and at least 512 px',
  size && size.width === size.height && size.width >= 512,
  size ? `${size.width}×${size.height}` : 'missing',
);
const icns = join(root, config.mac?.icon ?? 'assets/icon.icns');
check('macOS .icns icon', existsSync(icns) && readFileSync(icns).toString('latin1', 0, 4) === 'icns');
const ico = join(root, config.win?.icon ?? 'assets/icon.ico');
check('Windows .ico icon', existsSync(ico) && readFileSync(ico).readUInt32LE(0) === 0x00010000);

/** electron-builder.yml key → index in Electron's fuse wire (the order @electron/fuses uses). */
const FUSES = {
  runAsNode: { index: 0, want: false },
  enableCookieEncryption: { index: 1, want: true },
  enableNodeOptionsEnvironmentVariable: { index: 2, want: false },
  enableNodeCliInspectArguments: { index: 3, want: false },
  enableEmbeddedAsarIntegrityValidation: { index: 4, want: true },
  onlyLoadAppFromAsar: { index: 5, want: true },
};
for (const [key, { want }] of Object.entries(FUSES)) {
  check(`fuse ${key}: ${want} in the config`, config.electronFuses?.[key] === want);
}

// ---------------------------------------------------------------------------------------------
console.log('package-check: pack --linux dir with a stub Electron');
const work = mkdtempSync(join(tmpdir(), 'desk-package-'));
const stubDist = join(work, 'electron-dist');
const outDir = join(work, 'release');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron 45's own defaults, so flipping is visible: RunAsNode on, cookie encryption off, NODE_OPTIONS
// on, --inspect on, asar integrity off, only-asar off, browser V8 snapshot off, file:// privileges on,
// Wasm trap handlers on.
const DEFAULT_WIRE = '101100011';
mkdirSync(join(stubDist, 'resources'), { recursive: true });
writeFileSync(
  join(stubDist, 'electron'),
  Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stub Electron used by scripts/package-check.mjs"\nexit 1\n'),
    Buffer.from(SENTINEL),
    Buffer.from([1, DEFAULT_WIRE.length]),
    Buffer.from(DEFAULT_WIRE, 'latin1'),
    Buffer.alloc(32),
  ]),
);
chmodSync(join(stubDist, 'electron'), 0o755);

const builderCli = require.resolve('electron-builder/cli.js');
const packed = spawnSync(
  process.execPath,
  [
    builderCli,
    '--linux',
    'dir',
    '--x64',
    '--publish',
    'never',
    `-c.electronDist=${stubDist}`,
    `-c.directories.output=${outDir}`,
  ],
  { cwd: root, encoding: 'utf8', env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' } },
);
const appDir = join(outDir, 'linux-unpacked');
const asarPath = join(appDir, 'resources', 'app.asar');
if (
  !check(
    'electron-builder packed app.asar',
    packed.status === 0 && existsSync(asarPath),
    `exit ${packed.status}`,
  )
) {
  console.log((packed.stdout + packed.stderr).split('\n').slice(-25).join('\n'));
  if (!keep) rmSync(work, { recursive: true, force: true });
  finish();
}

// ---------------------------------------------------------------------------------------------
console.log('package-check: contents of app.asar');
const asar = require('@electron/asar');
const entries = asar.listPackage(asarPath, { isPack: false }).map((p) => p.split('\\').join('/'));
const inAsar = new Set(entries);
for (const file of [
  '/out/main/index.cjs',
  '/out/preload/index.cjs',
  '/out/renderer/index.html',
  '/package.json',
]) {
  check(`contains ${file}`, inAsar.has(file));
}
const forbidden = [
  ['tests', /\.(test|spec)\.[cm]?[jt]sx?$/],
  ['source maps', /\.map$/],
  ['.env files', /(^|\/)\.env(\.|$)/],
  ['TypeScript sources', /\.(ts|tsx|mts|cts)$/],
  ['source folders', /^\/(electron|shared|emulator|test|scripts|docs|renderer\/src)(\/|$)/],
  ['node_modules', /(^|\/)node_modules(\/|$)/],
  ['plain-Node builds (bridge, CLI, emulator)', /^\/out\/(bridge|cli|emulator)(\/|$)/],
];
for (const [what, pattern] of forbidden) {
  const hits = entries.filter((e) => pattern.test(e));
  check(`no ${what}`, hits.length === 0, hits.slice(0, 5).join(', '));
}

const packedPkg = JSON.parse(asar.extractFile(asarPath, 'package.json').toString('utf8'));
check(
  'package.json main is in app.asar',
  inAsar.has(`/${posix.normalize(packedPkg.main ?? '')}`),
  packedPkg.main,
);

// Nothing is shipped in app.asar's node_modules, so every require() must be Electron, a builtin, a
// packed file, or a module shipped beside app.asar in resources/node_modules (the SQLite binding).
const resourcesModules = join(appDir, 'resources', 'node_modules');
const shippedBeside = (spec) => existsSync(join(resourcesModules, ...spec.split('/'), 'package.json'));
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const unresolved = [];
for (const entry of entries.filter((e) => /^\/out\/(main|preload)\/.*\.c?js$/.test(e))) {
  const code = asar.extractFile(asarPath, entry.slice(1)).toString('utf8');
  for (const match of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
    const spec = match[1];
    if (spec === 'electron' || builtins.has(spec) || shippedBeside(spec)) continue;
    if (spec.startsWith('.')) {
      const target = posix.join(posix.dirname(entry), spec);
      if ([target, `${target}.js`, `${target}.cjs`].some((t) => inAsar.has(t))) continue;
    }
    // ajv keeps some require() calls as template-literal text for its standalone code generator;
    // that text is never executed by the app.
    if (code[match.index - 1] === '`') continue;
    unresolved.push(`${entry} → ${spec}`);
  }
}
check(
  'main and preload require only Electron, Node builtins and packed files',
  unresolved.length === 0,
  unresolved.join(', '),
);

// The SQLite binding: its loader and only this platform's N-API binary, and it opens a database in
// a plain Node with nothing else to find it by (N-API: the same binary loads in Electron).
const sqliteDir = join(resourcesModules, '@photostructure', 'sqlite');
const prebuilds = existsSync(join(sqliteDir, 'prebuilds')) ? readdirSync(join(sqliteDir, 'prebuilds')) : [];
check(
  'SQLite binding shipped in resources/node_modules with only this platform’s binary',
  existsSync(join(resourcesModules, 'node-gyp-build', 'index.js')) &&
    prebuilds.length === 1 &&
    prebuilds[0] === `${process.platform}-${process.arch}`,
  prebuilds.join(', ') || 'missing',
);
const sqliteProbe = spawnSync(
  process.execPath,
  [
    '-e',
    "const { DatabaseSync } = require(process.argv[1]); const db = new DatabaseSync(':memory:'); console.log(db.prepare('SELECT sqlite_version() AS v').get().v);",
    sqliteDir,
  ],
  { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } },
);
check(
  'shipped SQLite binding opens a database',
  sqliteProbe.status === 0,
  (sqliteProbe.stdout || sqliteProbe.stderr).trim().split('\n').pop(),
);

const resourcesAssets = join(appDir, 'resources', 'assets');
const shippedAssets = readdirSync(join(root, 'assets')).filter((f) => !f.endsWith('.svg'));
const missingAssets = shippedAssets.filter((f) => !existsSync(join(resourcesAssets, f)));
check('assets/ shipped in resources/assets', missingAssets.length === 0, missingAssets.join(', '));

// ---------------------------------------------------------------------------------------------
// The packed main and preload, run in plain Node under a stand-in `electron` module: proves the
// bundles load from app.asar's contents alone (no node_modules), wire every channel and agree with
// each other. The real Electron cannot run here, so this is the closest to a start-up we can get.
const SMOKE_HARNESS = String.raw`
const Module = require('node:module');
const { EventEmitter } = require('node:events');
const { pathToFileURL } = require('node:url');
const [appRoot, dataDir, xlsFile, parentPortShim] = process.argv.slice(2);
const handlers = new Map();
// Electron's utility process, stood in for by a Node child given process.parentPort as Electron
// documents it (a 'message' event carrying { data }, postMessage): the shipped reading program runs
// as it would in the app, from resources/, with SheetJS from resources/node_modules.
const forks = [];
const utilityProcess = {
  fork(file, args, options) {
    forks.push({ file, execArgv: options.execArgv, serviceName: options.serviceName });
    const child = require('node:child_process').fork(file, args, {
      execArgv: [...(options.execArgv || []), '--require', parentPortShim],
      env: options.env, serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const proc = new EventEmitter();
    child.on('message', (m) => proc.emit('message', m));
    child.on('exit', (code) => proc.emit('exit', code));
    proc.postMessage = (m) => child.send(m);
    proc.kill = () => child.kill();
    return proc;
  },
};
const exposed = new Map();
const app = new EventEmitter();
let window = null;
class WebContents extends EventEmitter {
  constructor() { super(); this.mainFrame = { url: '', parent: null }; }
  isDestroyed() { return false; }
  send() {}
  setWindowOpenHandler() {}
}
class BrowserWindow extends EventEmitter {
  static getAllWindows() { return window ? [window] : []; }
  constructor(options) { super(); this.options = options; this.webContents = new WebContents(); window = this; app.emit('web-contents-created', {}, this.webContents); }
  isDestroyed() { return false; }
  async loadFile(file) { this.webContents.mainFrame.url = pathToFileURL(file).href; }
  async loadURL(url) { this.webContents.mainFrame.url = url; }
  show() {}
}
Object.assign(app, {
  isPackaged: true, getPath: () => dataDir, setPath() {}, getAppPath: () => appRoot, getVersion: () => '0.0.0',
  enableSandbox() {}, requestSingleInstanceLock: () => true, setAppUserModelId() {}, whenReady: () => Promise.resolve(),
  quit() { app.emit('quit-called'); }, exit(code) { console.error('app.exit(' + code + ')'); process.exit(3); },
});
const electron = {
  app, BrowserWindow, utilityProcess,
  dialog: { showErrorBox: (title, message) => console.error(title + ': ' + message) },
  ipcMain: { handle: (channel, handler) => handlers.set(channel, handler), removeHandler: (c) => handlers.delete(c), on() {} },
  session: { defaultSession: { setPermissionRequestHandler() {}, setPermissionCheckHandler() {}, setDevicePermissionHandler() {}, webRequest: { onHeadersReceived() {} } } },
  safeStorage: { isEncryptionAvailable: () => false, getSelectedStorageBackend: () => 'basic_text', encryptString() { throw new Error('no'); }, decryptString() { throw new Error('no'); } },
  shell: { openExternal: async () => undefined },
  Notification: class { static isSupported() { return false; } show() {} },
  contextBridge: { exposeInMainWorld: (key, api) => exposed.set(key, api) },
  ipcRenderer: { invoke: async () => undefined, on() {}, removeListener() {} },
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'electron' ? 'electron' : resolve.call(this, request, ...rest);
};
require.cache.electron = { id: 'electron', filename: 'electron', loaded: true, exports: electron };
process.resourcesPath = appRoot;
require(appRoot + '/out/main/index.cjs');
require(appRoot + '/out/preload/index.cjs');
(async () => {
  for (let i = 0; i < 200 && !window; i++) await new Promise((r) => setTimeout(r, 25));
  const contents = window && window.webContents;
  const own = { sender: contents, senderFrame: contents && contents.mainFrame };
  const info = handlers.has('app.info') ? await handlers.get('app.info')(own, {}) : null;
  const foreign = handlers.has('app.info') ? await handlers.get('app.info')({ sender: {}, senderFrame: own.senderFrame }, {}) : null;
  const xls = require('node:fs').readFileSync(xlsFile);
  // The Offline sandbox: started as a utility process from resources/offlineSandbox.cjs, it issues a token.
  const offline = handlers.has('settings.testConnection')
    ? await handlers.get('settings.testConnection')(own, { environment: 'offline' })
    : null;
  const read = handlers.has('spreadsheet.readWithSheetJS')
    ? await handlers.get('spreadsheet.readWithSheetJS')(own, { bytes: new Uint8Array(xls) })
    : null;
  const report = {
    offline: offline && { ok: offline.ok, error: offline.error },
    sheetJS: read && { ok: read.ok, sheetNames: read.value && read.value.sheetNames, cells: read.value && read.value.cells, error: read.error, forks },
    windows: window ? 1 : 0,
    webPreferences: window ? window.options.webPreferences : null,
    handlers: [...handlers.keys()],
    exposedKeys: [...exposed.keys()],
    deskKeys: Object.keys(exposed.get('desk') || {}),
    appInfo: info,
    foreign,
  };
  app.once('quit-called', () => { console.log(JSON.stringify(report)); process.exit(0); });
  app.emit('will-quit', { preventDefault() {} });
})().catch((e) => { console.error(e && e.stack || e); process.exit(2); });
`;

// ---------------------------------------------------------------------------------------------
console.log('package-check: packed main and preload start under a stand-in electron module');
const extracted = join(work, 'app');
asar.extractAll(asarPath, extracted);
// resources/ laid out as packed: app.asar's contents with node_modules beside them.
if (existsSync(resourcesModules)) cpSync(resourcesModules, join(work, 'node_modules'), { recursive: true });
const smokeData = join(work, 'data');
mkdirSync(smokeData);
writeFileSync(join(work, 'smoke.cjs'), SMOKE_HARNESS);
// The programs main starts apart sit beside app.asar, in resources/.
for (const program of ['sheetJSReader.cjs', 'offlineSandbox.cjs']) {
  const shipped = join(appDir, 'resources', program);
  if (existsSync(shipped)) cpSync(shipped, join(extracted, program));
}
// A small .xls for the packed main to read through its reading process.
const XLSX = createRequire(import.meta.url)('xlsx');
const book = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(
  book,
  XLSX.utils.aoa_to_sheet([
    ['Name', 'Amount'],
    ['Ann', 25.5],
  ]),
  'Gifts',
);
writeFileSync(join(work, 'book.xls'), XLSX.write(book, { type: 'buffer', bookType: 'biff8' }));
writeFileSync(
  join(work, 'parentPort.cjs'),
  "const { EventEmitter } = require('node:events'); const port = new EventEmitter(); port.postMessage = (m) => process.send(m); process.on('message', (data) => port.emit('message', { data })); process.on('disconnect', () => process.exit(0)); process.parentPort = port;",
);
// An empty NODE_PATH and a cwd outside the project, so nothing can be found in the project's node_modules.
const smoke = spawnSync(
  process.execPath,
  [join(work, 'smoke.cjs'), extracted, smokeData, join(work, 'book.xls'), join(work, 'parentPort.cjs')],
  {
    cwd: work,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NODE_PATH: '', DONATION_DESK_HOME: smokeData },
  },
);
let report = null;
try {
  report = JSON.parse(smoke.stdout.trim().split('\n').pop() ?? '');
} catch {
  report = null;
}
if (check('main starts and quits cleanly', smoke.status === 0 && report, `exit ${smoke.status}`)) {
  check('one window', report.windows === 1);
  const prefs = report.webPreferences ?? {};
  check(
    'window is isolated and sandboxed without Node',
    prefs.contextIsolation === true &&
      prefs.sandbox === true &&
      prefs.nodeIntegration === false &&
      prefs.webSecurity === true,
  );
  check('IPC handlers registered', report.handlers.length > 0, `${report.handlers.length} channels`);
  check('preload exposes only window.desk', report.exposedKeys.join() === 'desk');
  const expected = [...report.handlers, 'on'].sort().join();
  check(
    'window.desk has exactly the registered channels plus on',
    report.deskKeys.sort().join() === expected,
  );
  check(
    'app.info answers from our window',
    report.appInfo?.ok === true && report.appInfo.value?.mode === 'electron',
  );
  check('a foreign sender is refused', report.foreign?.error?.code === 'FORBIDDEN_SENDER');
  const forks = report.sheetJS?.forks ?? [];
  const sandboxFork = forks.find((f) => f.file === join(extracted, 'offlineSandbox.cjs'));
  check(
    'the Offline sandbox runs in a utility process from resources/offlineSandbox.cjs and issues a token',
    report.offline?.ok === true && sandboxFork !== undefined,
    JSON.stringify(report.offline ?? null).slice(0, 300),
  );
  const fork = forks.find((f) => f.file === join(extracted, 'sheetJSReader.cjs'));
  check(
    'an .xls is read in a utility process running resources/sheetJSReader.cjs, with a heap limit',
    report.sheetJS?.ok === true &&
      report.sheetJS.sheetNames?.join() === 'Gifts' &&
      JSON.stringify(report.sheetJS.cells).includes('Ann') &&
      fork?.file === join(extracted, 'sheetJSReader.cjs') &&
      fork.execArgv?.some((a) => a.startsWith('--max-old-space-size=')),
    JSON.stringify(report.sheetJS ?? null).slice(0, 300),
  );
} else {
  console.log((smoke.stderr || smoke.stdout).split('\n').slice(-15).join('\n'));
}

// ---------------------------------------------------------------------------------------------
console.log('package-check: fuses read back from the packed executable');
const { getCurrentFuseWire } = await import('@electron/fuses');
const executable = join(appDir, config.linux?.executableName ?? 'electron');
try {
  const wire = await getCurrentFuseWire(executable);
  for (const [key, { index, want }] of Object.entries(FUSES)) {
    const actual = wire[index];
    check(
      `fuse ${key} is ${want ? 'on' : 'off'}`,
      actual === (want ? 49 : 48),
      `wire byte ${String.fromCharCode(actual)}`,
    );
  }
  const untouched = [...DEFAULT_WIRE].every(
    (state, i) => Object.values(FUSES).some((f) => f.index === i) || wire[i] === state.charCodeAt(0),
  );
  check('fuses not in the config keep Electron’s defaults', untouched);
} catch (error) {
  check('fuse wire readable', false, String(error?.message ?? error));
}

if (keep) console.log(`  kept ${work}`);
else rmSync(work, { recursive: true, force: true });
finish();
