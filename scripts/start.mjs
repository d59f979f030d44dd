// `npm start`: builds the app and opens it in Electron. Where the Electron binary cannot be had
// (no download possible, unsupported machine), it says so and starts browser mode instead.
import { spawn, spawnSync } from 'node:child_process';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });

if (run('npm', ['run', 'build']).status !== 0) process.exit(1);

// Resolving the binary may try to download it; give that a bounded time.
const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
  encoding: 'utf8',
  timeout: 180_000,
});
const electronPath = probe.status === 0 ? probe.stdout.trim() : '';

if (!electronPath) {
  console.log(
    'The Electron binary is not available on this computer, so Donation Desk starts in browser mode instead.',
  );
  const child = spawn(process.execPath, ['out/bridge/index.cjs', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const child = spawn(electronPath, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}
