// `npm test`: everything CI runs, in order, with one closing line that sums every suite:
// "N passed, N failed". A check that is not a test runner (typecheck, lint, scans) counts as one test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

function step(name, cmd, args, countFrom) {
  if (only.length && !only.includes(name)) return;
  console.log(`\n━━ ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counted = countFrom?.();
  if (counted) {
    passed += counted.passed;
    failed += counted.failed;
    skipped += counted.skipped ?? 0;
    if (counted.failed || result.status !== 0) failures.push(name);
    // A runner that crashed before reporting still fails the run.
    if (result.status !== 0 && counted.failed === 0) failed += 1;
  } else if (result.status === 0) {
    passed += 1;
  } else {
    failed += 1;
    failures.push(name);
  }
  console.log(`━━ ${name}: ${result.status === 0 ? 'ok' : `FAILED (exit ${result.status})`} in ${seconds}s`);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

mkdirSync('test-results', { recursive: true });
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

step('typecheck', npx, ['tsc', '-p', 'tsconfig.node.json', '--noEmit']);
step('typecheck-web', npx, ['tsc', '-p', 'tsconfig.web.json', '--noEmit']);
step('typecheck-e2e', npx, ['tsc', '-p', 'tsconfig.e2e.json', '--noEmit']);
step('lint', npx, ['eslint', '.', '--max-warnings', '0']);
step('format', npx, ['prettier', '--check', '.', '--log-level', 'warn']);

rmSync('test-results/unit.json', { force: true });
step(
  'unit',
  npx,
  ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/unit.json'],
  () => {
    const r = readJson('test-results/unit.json');
    if (!r) return null;
    return {
      passed: r.numPassedTests,
      failed: r.numFailedTests,
      skipped: r.numPendingTests + (r.numTodoTests ?? 0),
    };
  },
);

step('build', 'npm', ['run', 'build']);
step('security', 'node', ['scripts/security-scan.mjs']);
step('package', 'node', ['scripts/package-check.mjs']);

rmSync('test-results/e2e.json', { force: true });
step('e2e', npx, ['playwright', 'test'], () => {
  const r = readJson('test-results/e2e.json');
  if (!r?.stats) return null;
  return {
    passed: r.stats.expected,
    failed: r.stats.unexpected + (r.stats.flaky ?? 0),
    skipped: r.stats.skipped,
  };
});

// The names of the tests that failed, last, so that the tail of a long log says which ones.
function failedNames() {
  const names = [];
  const unit = readJson('test-results/unit.json');
  for (const file of unit?.testResults ?? [])
    for (const t of file.assertionResults ?? [])
      if (t.status === 'failed')
        names.push(
          `unit: ${file.name.replace(process.cwd() + '/', '')} › ${t.fullName}\n    ${(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300)}`,
        );
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected' || test.status === 'flaky')
          names.push(`e2e: ${file} › ${spec.title} (${test.status})`);
    for (const inner of suite.suites ?? []) walk(inner, file);
  };
  const e2e = readJson('test-results/e2e.json');
  for (const suite of e2e?.suites ?? []) walk(suite, suite.file ?? suite.title);
  return names;
}

if (!existsSync('out/renderer/index.html') && (!only.length || only.includes('build')))
  failures.push('build output');
if (failed) for (const name of failedNames()) console.log(`✗ ${name}`);
console.log(`\n${failures.length ? `Failed: ${failures.join(', ')}` : 'Every suite passed.'}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed || failures.length ? 1 : 0);
