import { describe, expect, it } from 'vitest';
import { EXIT, commandArgs, registerCommand, runCli } from './main';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      out: (t: string) => out.push(t),
      err: (t: string) => err.push(t),
      env: {},
      root: '.',
      version: '1.2.3',
    },
  };
}

registerCommand('echo-args', {
  summary: 'Test command: prints what it was given.',
  usage: 'donation-desk echo-args ...',
  async run(ctx) {
    ctx.io.out(JSON.stringify({ args: ctx.args, json: ctx.json }));
    return EXIT.ok;
  },
});

registerCommand('strict-args', {
  summary: 'Test command with one option and no positionals.',
  usage: '',
  async run(ctx) {
    commandArgs(ctx, { out: { type: 'string' } }, false);
    return EXIT.ok;
  },
});

describe('donation-desk global options', () => {
  it('turns a mistake in a command’s own options into exit 2 with the reason', async () => {
    const unknown = io();
    expect(await runCli(['strict-args', '--nope'], unknown.io)).toBe(EXIT.usage);
    expect(unknown.err.join('')).toMatch(/--nope.*donation-desk strict-args --help/);
    const positional = io();
    expect(await runCli(['strict-args', 'extra'], positional.io)).toBe(EXIT.usage);
    expect(positional.err.join('')).toMatch(/Unexpected argument 'extra'/);
    expect(await runCli(['strict-args', '--out', 'x.xlsx'], io().io)).toBe(EXIT.ok);
  });

  it('prints the version and the help with every command and the exit codes', async () => {
    const v = io();
    expect(await runCli(['--version'], v.io)).toBe(EXIT.ok);
    expect(v.out).toEqual(['1.2.3']);
    const h = io();
    expect(await runCli(['--help'], h.io)).toBe(EXIT.ok);
    expect(h.out.join('\n')).toMatch(/echo-args\s+Test command/);
    expect(h.out.join('\n')).toMatch(/--env offline\|sandbox\|production\|custom/);
    expect(h.out.join('\n')).toMatch(/Exit codes: 0/);
  });

  it('refuses an unknown command with exit 2 and a pointer to --help', async () => {
    const u = io();
    expect(await runCli(['frobnicate'], u.io)).toBe(EXIT.usage);
    expect(u.err.join('')).toMatch(/Unknown command "frobnicate".*--help/);
  });

  it('hands a command its own arguments without the global options', async () => {
    const c = io();
    const code = await runCli(
      ['--env', 'offline', 'echo-args', 'file.xlsx', '--data-dir=/tmp/x', '--json', '--sheet', 'S'],
      c.io,
    );
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(c.out[0] ?? '{}')).toEqual({ args: ['file.xlsx', '--sheet', 'S'], json: true });
  });

  it('explains an unknown environment instead of guessing', async () => {
    registerCommand('needs-runtime', {
      summary: 'Test command that starts the services.',
      usage: '',
      async run(ctx) {
        await ctx.runtime();
        return EXIT.ok;
      },
    });
    const e = io();
    expect(await runCli(['--env', 'moon', '--data-dir', '/tmp/desk-cli-env', 'needs-runtime'], e.io)).toBe(
      EXIT.usage,
    );
    expect(e.err.join('')).toMatch(/Unknown environment "moon"/);
  });
});
