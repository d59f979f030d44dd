import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeApartProcess } from '../../../electron/services/core/nodeApartProcess';
import { offlineSandboxApart } from '../../../electron/services/environments/offlineApart';
import { buildCli } from '../cliProcess';
import { startDesk } from '../../../electron/services';
import { dispatch } from '../../../shared/contract';

/*
 * The Offline sandbox in a process of its own, as the CLI and the local bridge start it: the
 * emulator's bundle run by Node, spoken to over the IPC channel.
 */

let dir: string;
let cli: string;
let emulatorFile: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-offline-apart-'));
  cli = await buildCli(dir);
  emulatorFile = join(dir, 'out', 'emulator', 'index.cjs');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const launch = () => nodeApartProcess({ offlineSandbox: { file: emulatorFile } });

async function token(apiBaseUrl: string, tokenUrl: string): Promise<number> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
  });
  void apiBaseUrl;
  return response.status;
}

/** The emulator processes whose parent is `pid` (Linux). */
function childrenOf(pid: number): number[] {
  const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(join('emulator', 'index.cjs')))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
    .filter((n) => n > 0);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the Offline sandbox in a process of its own', () => {
  it('serves tokens from another process, keeps its clock here, and keeps what it holds across a restart', async () => {
    const dataDir = join(dir, 'sandbox-a');
    const start = offlineSandboxApart(launch(), { dataDir, timeScale: 0, recipientCheck: 'validation' });
    const sandbox = await start();
    expect(childrenOf(process.pid).length).toBeGreaterThan(0);
    expect(await token(sandbox.apiBaseUrl, sandbox.tokenUrl)).toBe(200);

    // Frozen clock (time scale 0): now() is where the sandbox said; advancing moves it there and here.
    const before = sandbox.now().getTime();
    await sandbox.advance(3 * 86_400);
    expect(sandbox.now().getTime() - before).toBe(3 * 86_400 * 1000);
    const moved = sandbox.now().toISOString();
    await sandbox.close();

    // Started again on the same folder: the clock it saved comes back (the days moved included).
    const again = await offlineSandboxApart(launch(), {
      dataDir,
      timeScale: 0,
      recipientCheck: 'validation',
    })();
    expect(Math.abs(again.now().getTime() - Date.parse(moved))).toBeLessThan(60_000);
    await again.close();
  }, 60_000);

  it('says when its process ends by itself, so that the next use starts it again', async () => {
    const before = new Set(childrenOf(process.pid));
    let gone = 0;
    const sandbox = await offlineSandboxApart(launch(), {
      dataDir: join(dir, 'sandbox-b'),
      timeScale: 1,
      recipientCheck: 'validation',
    })(() => gone++);
    const started = childrenOf(process.pid).filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    process.kill(started[0]!, 'SIGKILL');
    await expect.poll(() => gone, { timeout: 10_000 }).toBe(1);
    await expect(sandbox.advance(60)).rejects.toMatchObject({ code: 'NETWORK' });
    await sandbox.close();
  }, 60_000);

  it('refuses plainly when its program cannot start', async () => {
    const start = offlineSandboxApart(
      nodeApartProcess({ offlineSandbox: { file: join(dir, 'missing.cjs') } }),
      {
        dataDir: join(dir, 'sandbox-c'),
        timeScale: 1,
        recipientCheck: 'validation',
      },
    );
    await expect(start()).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('The Offline sandbox stopped while starting'),
    });
  }, 30_000);

  it('ends with the CLI that started it, even when the CLI is killed outright', async () => {
    const dataDir = join(dir, 'cli-home');
    // A command that uses the sandbox and then waits: follow an upload with a frozen clock.
    const child = spawn(process.execPath, [cli, 'connection', 'test', '--data-dir', dataDir], {
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        NODE_PATH: join(process.cwd(), 'node_modules'),
        DONATION_DESK_OFFLINE_TIME_SCALE: '0',
      },
    });
    // The CLI starts its sandbox as a child of its own.
    await expect
      .poll(() => childrenOf(child.pid!).length, { timeout: 20_000, interval: 50 })
      .toBeGreaterThan(0);
    const sandboxPid = childrenOf(child.pid!)[0]!;
    child.kill('SIGKILL');
    await expect.poll(() => alive(sandboxPid), { timeout: 15_000 }).toBe(false);
  }, 60_000);

  it('in the app: a sandbox whose process ended is started again by the next use', async () => {
    const home = join(dir, 'app-home');
    const before = new Set(childrenOf(process.pid));
    const runtime = await startDesk({
      mode: 'browser',
      dataDir: home,
      appVersion: '9.9.9',
      assetsDir: home,
      secretBox: null,
      openExternal: async () => undefined,
      env: {},
      launchApartProcess: launch(),
    });
    const test = () =>
      dispatch(
        runtime.services,
        'settings.testConnection',
        { environment: 'offline' },
        { transport: 'test' },
      );
    try {
      expect(await test()).toMatchObject({ ok: true });
      const first = childrenOf(process.pid).filter((pid) => !before.has(pid));
      expect(first).toHaveLength(1);
      process.kill(first[0]!, 'SIGKILL');
      await expect.poll(() => alive(first[0]!), { timeout: 10_000 }).toBe(false);
      // Give the parent a moment to hear of it, then use the sandbox again.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await test()).toMatchObject({ ok: true });
      const second = childrenOf(process.pid).filter((pid) => !before.has(pid));
      expect(second).toHaveLength(1);
      expect(second[0]).not.toBe(first[0]);
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
