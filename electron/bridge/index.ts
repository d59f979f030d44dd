import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { plainNodeApartProcess, startDesk } from '../services';
import { defaultUserDataDir, resolveDataDir } from '../services/core/dataDir';
import { packageRoot, packageVersion } from '../services/core/appPaths';
import { startBridge } from './server';
import { osIdentity } from '../services/core/identity';

const usage = `Usage: npm run web [-- --port N] [--data-dir DIR] [--env offline|sandbox|production|custom]

Starts Donation Desk in browser mode: the app is served on this computer only (127.0.0.1),
and the printed address, which carries a secret for this launch, opens it in any browser.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      env: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const root = packageRoot(__dirname);
  const dataDir = resolveDataDir(process.argv.slice(2), process.env, defaultUserDataDir());
  const runtime = await startDesk(
    {
      mode: 'browser',
      dataDir,
      appVersion: packageVersion(root),
      assetsDir: join(root, 'assets'),
      secretBox: null,
      openExternal: async () => undefined,
      identity: osIdentity(process.env),
      env: process.env,
      // The Offline sandbox runs as out/emulator/index.cjs beside this bundle, in a process of its own.
      launchApartProcess: plainNodeApartProcess(__dirname),
    },
    { overrides: values.env ? { environment: values.env } : {} },
  );
  const bridge = await startBridge({
    services: runtime.services,
    events: runtime.events,
    rendererDir: join(root, 'out', 'renderer'),
    iconFile: join(root, 'assets', 'icon.ico'),
    port: values.port ? Number(values.port) : 0,
    onUnexpected: (channel, error) =>
      console.error(`[bridge] ${channel} failed:`, error instanceof Error ? error.stack : error),
  });
  console.log(`Donation Desk (browser mode) is running. Open this address in your browser:\n  ${bridge.url}`);
  console.log(`Data folder: ${dataDir}`);
  const stop = async () => {
    await bridge.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
