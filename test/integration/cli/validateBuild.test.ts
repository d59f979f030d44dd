import { mkdtemp, readFile, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import '../../../electron/cli/commands/validate';

let dir: string;

async function cli(...args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli([...args, '--data-dir', dir], {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    env: {},
    root: process.cwd(),
    version: 'test',
  });
  return { code, out, err };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-cli-'));
  await writeFile(
    join(dir, 'gifts.csv'),
    [
      'Acme Corp gifts, November',
      '',
      'Charity ID,Gift amount,Employee email,Employee ID',
      '840-123456789,25.00,ana@acme.example,E-1',
      '840-987654321,10.005,ben@acme.example,E-2',
      '840-111111111,"1,000.00",chloe@acme,E-3',
      'Total,"1,035.005",,',
    ].join('\n'),
  );
  await writeFile(
    join(dir, 'mapping.json'),
    JSON.stringify({
      columns: {
        'Charity ID': 'recipientId',
        'Gift amount': 'amount',
        'Employee email': 'donor.email',
        'Employee ID': 'metadata.employeeId',
      },
      fixed: { currencyCode: 'USD' },
    }),
  );
});

describe('donation-desk validate', () => {
  it('prints the documented JSON with spreadsheet row numbers, headers and minor-unit totals, and exits 1', async () => {
    const { code, out } = await cli(
      'validate',
      join(dir, 'gifts.csv'),
      '--mapping',
      join(dir, 'mapping.json'),
      '--json',
    );
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(Object.keys(report)).toEqual(['file', 'sheet', 'headerRow', 'counts', 'issues', 'totals']);
    expect(report).toMatchObject({
      file: 'gifts.csv',
      headerRow: 3,
      counts: { rows: 3, valid: 1, invalid: 2 },
    });
    const errors = report.issues.filter((i: { severity: string }) => i.severity === 'error');
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 5, column: 'Gift amount', field: 'funds.amount' }),
        expect.objectContaining({ row: 6, column: 'Employee email', field: 'donor.email' }),
      ]),
    );
    expect(report.totals).toEqual([{ currencyCode: 'USD', count: 1, amount: 2500 }]);
  });

  it('exits 2 with a clear message for a file or mapping it cannot use', async () => {
    const missing = await cli('validate', join(dir, 'nope.xlsx'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/Cannot read/);
    await writeFile(join(dir, 'bad-mapping.json'), '{"columns": {"Charity ID": "recipient"}}');
    const bad = await cli('validate', join(dir, 'gifts.csv'), '--mapping', join(dir, 'bad-mapping.json'));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/mapping/i);
  });

  it('exits 0 when every row is valid', async () => {
    await writeFile(
      join(dir, 'good.csv'),
      'Charity ID,Gift amount,Currency\n840-123456789,25.00,USD\n840-987654321,5,EUR\n',
    );
    const { code, out } = await cli('validate', join(dir, 'good.csv'), '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out).totals).toEqual(
      expect.arrayContaining([
        { currencyCode: 'USD', count: 1, amount: 2500 },
        { currencyCode: 'EUR', count: 1, amount: 500 },
      ]),
    );
  });

  it('names a CSV by the file alone in its text report, without the reader’s stand-in sheet name', async () => {
    const { out } = await cli('validate', join(dir, 'good.csv'));
    expect(out.split('\n')[0]).toBe('good.csv · headers in row 1');
  });
});

describe('donation-desk build', () => {
  it('refuses while invalid rows remain and writes nothing', async () => {
    const out = join(dir, 'refused.json.gz');
    const { code, err } = await cli(
      'build',
      join(dir, 'gifts.csv'),
      '--mapping',
      join(dir, 'mapping.json'),
      '--out',
      out,
    );
    expect(code).toBe(1);
    expect(err).toMatch(/rows 5, 6/);
    await expect(stat(out)).rejects.toThrow();
  });

  it('with --skip-invalid writes a gzipped bulk file with top-level data only and lists what it left out', async () => {
    const out = join(dir, 'bulk.json.gz');
    const { code, out: printed } = await cli(
      'build',
      join(dir, 'gifts.csv'),
      '--mapping',
      join(dir, 'mapping.json'),
      '--out',
      out,
      '--skip-invalid',
      '--json',
    );
    expect(code).toBe(0);
    expect(JSON.parse(printed)).toMatchObject({ donations: 1, skippedRows: [5, 6] });
    const bulk = JSON.parse(gunzipSync(await readFile(out)).toString('utf8'));
    expect(Object.keys(bulk)).toEqual(['data']);
    expect(bulk.data).toEqual([
      {
        type: 'donations',
        attributes: {
          destination: { recipientId: '840-123456789' },
          funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'USD', amount: 2500 },
          donor: { email: 'ana@acme.example' },
          metadata: { employeeId: 'E-1' },
        },
      },
    ]);
  });
});
