import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../emulator/server';

let dir: string;
let bundle: string;

beforeAll(async () => {
  // Build the command-line entry the way scripts/build-node.mjs does, into a private folder, so the
  // test does not race with other builds of out/.
  dir = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
  bundle = join(dir, 'emulator', 'index.cjs');
  await build({
    entryPoints: ['emulator/index.ts'],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'silent',
  });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('command line', () => {
  it('prints the addresses and demo credentials, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [bundle, '--port', '0', '--upload-port', '0', '--time-scale', '0', '--client-secret', 's3cret'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 100 && !output.includes('Press Ctrl+C'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const api = /API base:\s+(\S+)/.exec(output)?.[1];
    const uploadHost = /Upload host:\s+(\S+)/.exec(output)?.[1];
    const tokenUrl = /Token address:\s+(\S+)/.exec(output)?.[1];
    expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(uploadHost).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(tokenUrl).toBe(`${api}/oauth2/token`);
    expect(output).toContain('demo-client');
    expect(output).toContain('s3cret');
    const token = await fetch(tokenUrl ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=demo-client&client_secret=s3cret',
    });
    expect(token.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('Emulator stopped');
  });

  it('explains bad flags with exit code 2 and prints help', async () => {
    const run = (args: string[]): Promise<{ code: number | null; text: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (c: Buffer) => (text += c.toString()));
        child.stderr.on('data', (c: Buffer) => (text += c.toString()));
        child.on('exit', (code) => resolve({ code, text }));
      });
    const bad = await run(['--nope']);
    expect(bad.code).toBe(2);
    expect(bad.text).toMatch(/--nope/);
    const when = await run(['--recipient-check', 'sometimes']);
    expect(when.code).toBe(2);
    expect(when.text).toMatch(/--recipient-check must be processing or validation/);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.text).toMatch(/--time-scale/);
    expect(help.text).toMatch(/--recipient-check/);
  });

  it('importing the bundle does not start a server', async () => {
    const child = spawn(
      process.execPath,
      ['-e', `const m = require(${JSON.stringify(bundle)}); console.log(typeof m.startEmulator);`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(text.trim()).toBe('function');
  });
});

describe('running clock', () => {
  it('advances virtual time at timeScale virtual seconds per real second', async () => {
    const emu = await startEmulator({ timeScale: 3600, quiet: true });
    try {
      const start = emu.now().getTime();
      await new Promise((r) => setTimeout(r, 500));
      const elapsed = emu.now().getTime() - start;
      expect(elapsed).toBeGreaterThanOrEqual(1700_000);
      expect(elapsed).toBeLessThan(3600_000 * 2);
    } finally {
      await emu.close();
    }
  });
});
