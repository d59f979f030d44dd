// A file with 100 metadata columns: the service's limit is 100 pairs a donation, so it fits only
// without the app's row reference pair. The app has a switch for it; the CLI's is --no-row-reference.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliOnEmulator, QUICK_POLLS } from '../../support/cliOnEmulator';
import '../../../electron/cli/commands/upload';
import '../../../electron/cli/commands/validate';

const h = cliOnEmulator({ prefix: 'dd-noref-', timeScale: 200, env: QUICK_POLLS });
const { cli } = h;
let file: string;
let mapping: string;

beforeAll(async () => {
  const recipient = h.recipients[0]!;
  const keys = Array.from({ length: 100 }, (_, i) => `Field ${i + 1}`);
  const rows = Array.from({ length: 3 }, (_, r) =>
    [recipient, `${r + 1}.00`, 'USD', ...keys.map((_, k) => `v${r}-${k}-${'x'.repeat(180)}`)].join(','),
  );
  file = join(h.dir, 'wide.csv');
  await writeFile(file, `${['Charity ID', 'Amount', 'Currency', ...keys].join(',')}\n${rows.join('\n')}\n`);
  mapping = join(h.dir, 'mapping.json');
  await writeFile(
    mapping,
    JSON.stringify({
      columns: {
        'Charity ID': 'recipientId',
        Amount: 'amount',
        Currency: 'currencyCode',
        ...Object.fromEntries(keys.map((k, i) => [k, `metadata.f${i + 1}`])),
      },
    }),
  );
});
describe('--no-row-reference', () => {
  it('validate counts the row reference as an upload does, and leaves it out when asked', async () => {
    const counted = await cli(['validate', file, '--mapping', mapping, '--json']);
    expect(counted.code).toBe(1);
    expect(JSON.parse(counted.out).issues[0]).toMatchObject({ severity: 'error', code: 'METADATA_TOO_MANY' });
    const without = await cli(['validate', file, '--mapping', mapping, '--no-row-reference', '--json']);
    expect(without.code, without.err).toBe(0);
    expect(JSON.parse(without.out).counts).toMatchObject({ rows: 3, valid: 3, invalid: 0 });
  });

  it('upload sends 100 metadata columns when the row reference is left out', async () => {
    const refused = await cli(['upload', file, '--mapping', mapping, '--json']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.out).error.message).toMatch(/plus the row reference/);
    const sent = await cli(['upload', file, '--mapping', mapping, '--no-row-reference', '--wait', '--json']);
    expect(sent.code, sent.err).toBe(0);
    expect(JSON.parse(sent.out)).toMatchObject({ state: 'processed', rows: 3 });
  }, 60_000);
});
