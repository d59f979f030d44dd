import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnEmulator } from '../../support/cliOnEmulator';
import '../../../electron/cli/commands/search';
import '../../../electron/cli/commands/locations';

const h = cliOnEmulator({ prefix: 'dd-cli-loc-', timeScale: 0, env: { LANG: 'de_DE.UTF-8' } });

async function sheet(name: string, lines: string[]): Promise<string> {
  const path = join(h.dir, name);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('donation-desk locations import', () => {
  it('imports, reports bad rows with their column, and exits 1 while any row has problems', async () => {
    const path = await sheet('stores.csv', [
      'Store,Ref,Street,Country,Tags,Email,First name,Last name,Primary',
      'Denver,CLI-1,1 Main St,US,Region=West,ann.cli@example.com,Ann,Ng,yes',
      'Berlin,CLI-2,2 Hauptstr,Germany,,,,,',
      'Paris,CLI-3,3 Rue,FR,,pierre@,Pierre,Roux,',
    ]);
    const first = await h.cli(['locations', 'import', path, '--json']);
    expect(first.code).toBe(1);
    const report = JSON.parse(first.out) as {
      counts: Record<string, number>;
      rows: Array<{ row: number; status: string; op?: string; errors: Array<{ column: string | null }> }>;
    };
    expect(report.counts).toMatchObject({ rows: 3, applied: 2, invalid: 1 });
    expect(report.rows[2]).toMatchObject({ row: 4, status: 'invalid', errors: [{ column: 'Email' }] });

    // Fixed and sent again: the two known reference ids become updates, the third an add.
    const fixed = await sheet('stores-fixed.csv', [
      'Store,Ref,Street,Country,Tags,Email,First name,Last name,Primary',
      'Denver,CLI-1,1 Main St,US,Region=West,ann.cli@example.com,Ann,Ng,yes',
      'Berlin,CLI-2,2 Hauptstr,Germany,,,,,',
      'Paris,CLI-3,3 Rue,FR,,pierre@example.fr,Pierre,Roux,',
    ]);
    const second = await h.cli(['locations', 'import', fixed]);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/row 2: updated/);
    expect(second.out).toMatch(/row 4: added/);
    expect(second.out).toContain('3 of 3 rows applied.');
  });

  it('takes a mapping file, and refuses one that names an unknown column (exit 2)', async () => {
    const path = await sheet('odd.csv', ['A,B,C,D', 'Lisbon,CLI-9,1 Rua,PT']);
    const mapping = join(h.dir, 'mapping.json');
    await writeFile(mapping, JSON.stringify({ name: 'A', referenceId: 'B', addressLine: 2, country: 'D' }));
    const ok = await h.cli(['locations', 'import', path, '--mapping', mapping, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).counts.applied).toBe(1);
    await writeFile(mapping, JSON.stringify({ name: 'Nope', referenceId: 'B' }));
    const bad = await h.cli(['locations', 'import', path, '--mapping', mapping]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('The file has no column “Nope”');
    // Without a mapping, nothing in these headers names a reference id.
    const unmapped = await h.cli(['locations', 'import', path]);
    expect(unmapped.code).toBe(2);
    expect(unmapped.err).toContain('reference id');
  });

  it('reports rows the service refuses (exit 1) and removes on an explicit Action', async () => {
    const path = await sheet('refused.csv', [
      'Name,Reference id,Address,Country,Action',
      'Oslo,CLI-20,1 Gate,NO,',
      'Rome,CLI-1,1 Via,IT,remove',
    ]);
    const result = await h.cli(['locations', 'import', path, '--json']);
    const report = JSON.parse(result.out) as { rows: Array<{ status: string; op?: string }> };
    expect(report.rows.map((r) => [r.status, r.op])).toEqual([
      ['applied', 'add'],
      ['applied', 'remove'],
    ]);
    expect(result.code).toBe(0);
    const again = await h.cli(['locations', 'import', path, '--json']);
    // CLI-1 is gone from the register now, so removing it again is a problem on that row.
    expect(again.code).toBe(1);
    expect(JSON.parse(again.out).rows[1]).toMatchObject({ status: 'failed', op: 'remove' });
  });

  it('exits 2 for a file it cannot read or a wrong sub-command', async () => {
    expect((await h.cli(['locations', 'import', join(h.dir, 'missing.xlsx')])).code).toBe(2);
    expect((await h.cli(['locations', 'export'])).code).toBe(2);
  });
});

describe('donation-desk search', () => {
  it('prints results as JSON with the donation page, and exits 1 when nothing matches', async () => {
    const found = await h.cli(['search', 'food', '--json']);
    expect(found.code).toBe(0);
    const body = JSON.parse(found.out) as { results: Array<{ id: number; donationPage: string }> };
    expect(body.results.length).toBeGreaterThan(0);
    const none = await h.cli(['search', 'libary']);
    expect(none.code).toBe(1);
    expect(none.err).toContain('Try --autocorrect');
    const corrected = await h.cli(['search', 'libary', '--autocorrect']);
    expect(corrected.code).toBe(0);
    expect(corrected.out).toMatch(/\*library\*/i);
  });

  it('ranks near the given point and refuses bad coordinates (exit 2)', async () => {
    const near = await h.cli(['search', 'wildlife', '--near=-33.8688,151.2093', '--json']);
    expect(near.code).toBe(0);
    expect(JSON.parse(near.out).near).toEqual({ latitude: -33.8688, longitude: 151.2093 });
    expect((await h.cli(['search', 'wildlife', '--near', 'Sydney'])).code).toBe(2);
    expect((await h.cli(['search', 'wildlife', '--near', '95,10'])).code).toBe(2);
    expect((await h.cli(['search'])).code).toBe(2);
  });

  it('exits 3 when the service cannot be reached', async () => {
    let out = '';
    const { runCli } = await import('../../../electron/cli/main');
    const code = await runCli(
      [
        '--base-url',
        'http://127.0.0.1:9',
        '--token-url',
        'http://127.0.0.1:9/token',
        '--data-dir',
        join(h.dir, 'down'),
        'search',
        'food',
      ],
      {
        out: (t) => (out += t),
        err: (t) => (out += t),
        env: { DONATION_DESK_CLIENT_ID: 'x', DONATION_DESK_CLIENT_SECRET: 'y' },
        root: h.dir,
        version: 'test',
      },
    );
    expect(code).toBe(3);
    expect(out).toContain('Could not reach');
  });
});
