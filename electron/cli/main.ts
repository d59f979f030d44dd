import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
import { startDesk, type DeskRuntime } from '../services';
import { defaultUserDataDir, resolveDataDir } from '../services/core/dataDir';
import { DeskFailure } from '../../shared/result';
import { osIdentity } from '../services/core/identity';
import type { LaunchApartProcess } from '../services/core/apartProcess';
import { EXIT, EXIT_CODES_HELP, exitCodeOf } from './exitCodes';

export { EXIT } from './exitCodes';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Resolves once stdout has taken what was written (a long listing waits so it never piles up). */
  drain?(): Promise<void>;
  env: Record<string, string | undefined>;
  /** stderr itself, for a progress line rewritten in place on a terminal. */
  errStream?: { write(text: string): void; isTTY: boolean };
  /** The package root (for assets and the version). */
  root: string;
  version: string;
  /** How the reader and the Offline sandbox are started apart (the built CLI: Node children). */
  launchApartProcess?: LaunchApartProcess;
}

export interface CliContext {
  io: CliIo;
  args: string[];
  json: boolean;
  /** The data folder of this run (--data-dir, DONATION_DESK_HOME or the app's), absolute. */
  dataDir: string;
  runtime(): Promise<DeskRuntime>;
}

export interface CliCommand {
  summary: string;
  usage: string;
  run(ctx: CliContext): Promise<number>;
}

/**
 * A command's own options, parsed strictly. A mistake in them (an unknown option, a missing value)
 * is reported by runCli with exit code 2, so commands need no handling of their own.
 */
export function commandArgs<const T extends ParseArgsOptionsConfig>(
  ctx: CliContext,
  options: T,
  allowPositionals = true,
) {
  const parsed = parseArgs({ args: ctx.args, options, allowPositionals: true, strict: true });
  if (!allowPositionals && parsed.positionals.length > 0) {
    throw Object.assign(new TypeError(`Unexpected argument '${parsed.positionals[0]}'.`), {
      code: 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
    });
  }
  return parsed;
}

function isArgumentError(e: unknown): e is Error {
  const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

const commands = new Map<string, CliCommand>();

/** Commands register themselves here; see electron/cli/commands/. */
export function registerCommand(name: string, command: CliCommand): void {
  commands.set(name, command);
}

function help(): string {
  const list = [...commands.entries()].map(([name, c]) => `  ${name.padEnd(16)} ${c.summary}`).join('\n');
  return `Usage: donation-desk [global options] <command> [command options]

Commands:
${list || '  (none)'}

Global options:
  --env offline|sandbox|production|custom   environment for this run (default: the one chosen in the app)
  --base-url URL        service address for this run (implies --env custom unless --env is given)
  --token-url URL       token address for this run
  --data-dir DIR        data folder (default: the app's; also DONATION_DESK_HOME)
  --json                machine-readable output
  -h, --help            this help;  donation-desk <command> --help for a command's own
  -v, --version         the version

Credentials come from DONATION_DESK_CLIENT_ID and DONATION_DESK_CLIENT_SECRET, or from the app's settings.
Team mode: DONATION_DESK_DATABASE_URL (or Settings → Team database) names the team's PostgreSQL database.

${EXIT_CODES_HELP}`;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        env: { type: 'string' },
        'base-url': { type: 'string' },
        'token-url': { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: false,
      allowPositionals: true,
    });
  } catch (e) {
    io.err(e instanceof Error ? e.message : String(e));
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  if (values.version) {
    io.out(io.version);
    return EXIT.ok;
  }
  if (!name) {
    io.out(help());
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const command = commands.get(name);
  if (!command) {
    io.err(`Unknown command "${name}". Run donation-desk --help for the list.`);
    return EXIT.usage;
  }
  if (values.help) {
    io.out(`${command.summary}\n\n${command.usage}`);
    return EXIT.ok;
  }
  // Everything after the command name, minus the global options, belongs to the command.
  const commandArgs = argv.slice(argv.indexOf(name) + 1).filter((a, i, all) => {
    const globalsWithValue = ['--env', '--base-url', '--token-url', '--data-dir'];
    if (globalsWithValue.includes(a) || globalsWithValue.some((g) => a.startsWith(`${g}=`))) return false;
    if (i > 0 && globalsWithValue.includes(all[i - 1] ?? '')) return false;
    return a !== '--json';
  });
  void rest;

  let runtime: DeskRuntime | null = null;
  const dataDir = resolveDataDir(argv, io.env, defaultUserDataDir());
  const ctx: CliContext = {
    io,
    args: commandArgs,
    json: values.json === true,
    dataDir,
    runtime: async () => {
      runtime ??= await startDesk(
        {
          mode: 'cli',
          dataDir,
          appVersion: io.version,
          assetsDir: join(io.root, 'assets'),
          secretBox: null,
          openExternal: async () => undefined,
          identity: osIdentity(io.env),
          env: io.env,
          ...(io.launchApartProcess ? { launchApartProcess: io.launchApartProcess } : {}),
        },
        {
          overrides: {
            environment: typeof values.env === 'string' ? values.env : undefined,
            baseUrl: typeof values['base-url'] === 'string' ? values['base-url'] : undefined,
            tokenUrl: typeof values['token-url'] === 'string' ? values['token-url'] : undefined,
          },
        },
      );
      return runtime;
    },
  };
  try {
    return await command.run(ctx);
  } catch (e) {
    if (isArgumentError(e)) {
      io.err(`${e.message} See donation-desk ${name} --help.`);
      return EXIT.usage;
    }
    io.err(
      e instanceof DeskFailure
        ? e.message
        : `Unexpected failure: ${e instanceof Error ? e.message : String(e)}`,
    );
    return exitCodeOf('uncaught', e);
  } finally {
    await (runtime as DeskRuntime | null)?.close();
  }
}
