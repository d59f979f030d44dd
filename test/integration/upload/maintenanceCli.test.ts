import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnEmulator, QUICK_POLLS } from '../../support/cliOnEmulator';
import '../../../electron/cli/commands/upload';
import '../../../electron/cli/commands/donations';
import '../../../electron/cli/commands/report';

/* The CLI meeting the service's scheduled maintenance: it says so in plain words and exits 5. */

const h = cliOnEmulator({ prefix: 'dd-cli-maintenance-', timeScale: 0, env: QUICK_POLLS });
const { cli } = h;

async function faults(patch: Record<string, unknown>): Promise<void> {
  await fetch(`${h.emu.apiBaseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
}

// The end is the service's Retry-After from now (the emulator's clock was moved on, so not 24:00).
const SENTENCE =
  /The giving service is in scheduled maintenance until \d\d:\d\d Mountain Time \(.*\d\d:\d\d your time\)\. Your upload is safe; it will be followed when the service is back\./;

describe('the CLI during the service’s scheduled maintenance', () => {
  it('exits 5 with the words for upload --wait, resume --wait, donations and report', async () => {
    const path = join(h.dir, 'gifts.csv');
    const rows = h.recipients.slice(0, 3).map((r, i) => `${r},${i + 1}.00,USD,E${i}`);
    await writeFile(path, ['Charity ID,Amount,Currency,Employee', ...rows].join('\n') + '\n');
    // One upload processed before the window (its donations are not final yet: a refresh reads them)…
    expect((await cli(['upload', path])).code).toBe(0);
    await h.emu.advance(2 * 3600);
    const processed = await cli(['resume', '--wait']);
    expect(processed.code, processed.err).toBe(0);
    // … and one the window meets while the service still validates it.
    const next = join(h.dir, 'next.csv');
    await writeFile(
      next,
      ['Charity ID,Amount,Currency,Employee', `${h.recipients[1]},7.00,USD,N1`].join('\n'),
    );
    expect((await cli(['upload', next])).code).toBe(0);
    await faults({ maintenance: 'on' });

    const resumed = await cli(['resume', '--wait']);
    expect(resumed.code, resumed.err).toBe(5);
    expect(resumed.err).toMatch(SENTENCE);
    expect(resumed.err).toContain('donation-desk resume --wait');

    const another = join(h.dir, 'more.csv');
    await writeFile(
      another,
      ['Charity ID,Amount,Currency,Employee', `${h.recipients[0]},9.00,USD,X1`].join('\n'),
    );
    const uploaded = await cli(['upload', another, '--wait']);
    expect(uploaded.code, uploaded.err).toBe(5);
    expect(uploaded.err).toMatch(SENTENCE);

    const donations = await cli(['donations']);
    expect(donations.code, donations.err + donations.out).toBe(5);
    expect(donations.err).toMatch(/scheduled maintenance until \d\d:\d\d Mountain Time .*Nothing is lost/);

    const month = new Date().toISOString().slice(0, 7);
    const report = await cli(['report', '--month', month]);
    expect(report.code, report.err).toBe(5);

    // Back: the same resume goes on and finishes.
    await faults({ maintenance: 'off' });
    // The upload the window kept from being sent goes now; then everything is processed.
    expect((await cli(['resume'])).code).toBe(0);
    await h.emu.advance(2 * 3600);
    const after = await cli(['resume', '--wait']);
    expect(after.code, after.err).toBe(0);
  }, 60_000);
});
