import { parseArgs } from 'node:util';
import { SANDBOX_APART_FLAG, serveParent } from './apart';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_SEED,
  type EmulatorOptions,
  startEmulator,
} from './server';

export { startEmulator } from './server';
export type { EmulatorOptions, RunningEmulator } from './server';

const HELP = `Donation Desk giving-service emulator

Usage: node out/emulator/index.cjs [options]

  --port <n>            API port on 127.0.0.1 (default 0 = any free port)
  --upload-port <n>     upload host port (default 0 = any free port)
  --time-scale <x>      virtual seconds per real second (default 1; 0 freezes the clock)
  --recipient-check <when>
                        when a recipient id not in the directory is found out: processing
                        (created, then declined; default) or validation (a bulk file's
                        validation refuses it; single donations are still declined later)
  --seed <n>            seed for the catalogue, ids, timings and faults (default ${DEFAULT_SEED})
  --data-dir <path>     persist state there (atomic writes) and reload it on restart
  --client-id <id>      demo client id (default ${DEFAULT_CLIENT_ID})
  --client-secret <s>   demo client secret (default ${DEFAULT_CLIENT_SECRET})
  --help                show this help
`;

function toNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got "${value}"`);
  return n;
}

export async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'upload-port': { type: 'string' },
        'time-scale': { type: 'string' },
        seed: { type: 'string' },
        'recipient-check': { type: 'string' },
        'data-dir': { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values['help']) {
    console.log(HELP);
    return 0;
  }
  const options: EmulatorOptions = {};
  try {
    const port = toNumber('port', values['port'] as string | undefined);
    const uploadPort = toNumber('upload-port', values['upload-port'] as string | undefined);
    const timeScale = toNumber('time-scale', values['time-scale'] as string | undefined);
    const seed = toNumber('seed', values['seed'] as string | undefined);
    if (port !== undefined) options.port = port;
    if (uploadPort !== undefined) options.uploadPort = uploadPort;
    if (timeScale !== undefined) options.timeScale = timeScale;
    if (seed !== undefined) options.seed = seed;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const recipientCheck = values['recipient-check'];
  if (recipientCheck !== undefined) {
    if (recipientCheck !== 'processing' && recipientCheck !== 'validation') {
      console.error(`--recipient-check must be processing or validation, got "${String(recipientCheck)}"`);
      return 2;
    }
    options.recipientCheck = recipientCheck;
  }
  if (typeof values['data-dir'] === 'string') options.dataDir = values['data-dir'];
  if (typeof values['client-id'] === 'string') options.clientId = values['client-id'];
  if (typeof values['client-secret'] === 'string') options.clientSecret = values['client-secret'];

  const emulator = await startEmulator(options);
  console.log(
    [
      'Giving-service emulator running (Offline sandbox)',
      `  API base:      ${emulator.apiBaseUrl}`,
      `  Upload host:   ${emulator.uploadBaseUrl}`,
      `  Token address: ${emulator.tokenUrl}`,
      `  Program pages: ${emulator.programUrl}`,
      `  Client id:     ${emulator.clientId}`,
      `  Client secret: ${emulator.clientSecret}`,
      `  Controls:      ${emulator.apiBaseUrl}/_emulator/{clock,faults,reset,info}`,
      `  Virtual time:  ${emulator.now().toISOString()}`,
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await emulator.close();
  console.log('Emulator stopped; state saved.');
  return 0;
}

/**
 * Run the command line only when this file is the program itself (the bundle out/emulator/index.cjs or
 * the source), so that the app and the benchmark can import startEmulator from the same bundle.
 */
const entry = process.argv[1] ?? '';
if (process.env[SANDBOX_APART_FLAG] === '1') {
  // Started by the app or the CLI as the Offline sandbox in a process of its own.
  serveParent();
} else if (/[\\/]emulator[\\/]index\.(cjs|js|ts)$/.test(entry)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`emulator failed to start: ${(error as Error).message}`);
      process.exitCode = 1;
    },
  );
}
