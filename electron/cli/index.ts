import { packageRoot, packageVersion } from '../services/core/appPaths';
import { runCli } from './main';
import { plainNodeApartProcess } from '../services';
import './commands/connection';
import './commands/upload';
import './commands/validate';
import './commands/search';
import './commands/locations';
import './commands/donations';
import './commands/report';
import './commands/db';
import './commands/audit';
import './commands/approvals';
import './commands/corrections';

const root = packageRoot(__dirname);
runCli(process.argv.slice(2), {
  out: (t) => process.stdout.write(`${t}\n`),
  drain: () =>
    process.stdout.writableNeedDrain
      ? new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()))
      : Promise.resolve(),
  err: (t) => process.stderr.write(`${t}\n`),
  errStream: { write: (t) => process.stderr.write(t), isTTY: process.stderr.isTTY === true },
  env: process.env,
  root,
  version: packageVersion(root),
  // The Offline sandbox runs as out/emulator/index.cjs beside this bundle, in a process of its own.
  launchApartProcess: plainNodeApartProcess(__dirname),
}).then(
  // Exit once everything written has been handed to the pipe (stdout to a pipe is asynchronous on macOS).
  (code) => process.stdout.write('', () => process.exit(code)),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  },
);
