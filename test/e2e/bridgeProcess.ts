import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BridgeProcess {
  url: string;
  origin: string;
  secret: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
  /** Ends the process at once, as a crash or power cut would. */
  kill(): Promise<void>;
}

export async function newDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'desk-e2e-'));
}

/** Starts `node out/bridge/index.cjs` (what `npm run web` runs) and reads the address it prints. */
export async function startBridgeProcess(
  dataDir: string,
  extraEnv: Record<string, string> = {},
): Promise<BridgeProcess> {
  const child: ChildProcess = spawn(process.execPath, ['out/bridge/index.cjs', '--data-dir', dataDir], {
    env: { ...process.env, DONATION_DESK_CLIENT_SECRET: '', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bridge did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/#secret=[A-Za-z0-9_-]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bridge exited with ${code}:\n${output}`));
    });
  });
  const parsed = new URL(url);
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return {
    url,
    origin: parsed.origin,
    secret: parsed.hash.replace('#secret=', ''),
    dataDir,
    output: () => output,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}
