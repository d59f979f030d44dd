// validate and build on files read in passes, a piece at a time (the way files of hundreds of
// megabytes are read), give what reading the file whole gives. Files are generated here, small,
// and DONATION_DESK_STREAM_FROM_BYTES makes them go the streamed way.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import '../../../electron/cli/commands/validate';
import { openRowSource } from '../../../electron/cli/stream/rowSource';
import { buildXlsx } from '../../../shared/spreadsheet/testing/zipWriter';

let dir: string;

async function cli(args: string[], streamed: boolean) {
  let out = '';
  let err = '';
  const code = await runCli([...args, '--data-dir', dir], {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    env: streamed ? { DONATION_DESK_STREAM_FROM_BYTES: '1' } : {},
    root: process.cwd(),
    version: 'test',
  });
  return { code, out, err };
}

const RECIPIENTS = ['840-123456789', '840-987654321', '826-1234567', '840-111111111'];

/** Rows of gifts with some invalid, some identical, some the same gift twice, and outliers. */
function giftRows(count: number): string[][] {
  return Array.from({ length: count }, (_, i) => {
    const amount =
      i % 97 === 5
        ? '25000.00'
        : i % 31 === 7
          ? 'abc'
          : `${(i % 40) + 1}.${String(i % 100).padStart(2, '0')}`;
    const email = i % 53 === 9 ? 'not-an-email' : `e${i % 400}@acme.example`;
    const note = i % 11 === 0 ? 'line one\nline "two", quoted' : `N${i}`;
    return [RECIPIENTS[i % RECIPIENTS.length]!, amount, i % 13 === 0 ? 'EUR' : 'USD', email, note];
  });
}

const quote = (cell: string): string => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-stream-'));
  const rows = giftRows(5_000);
  // Identical rows and the same gift twice, far apart.
  rows.push([...rows[10]!], [...rows[20]!.slice(0, 4), 'other note']);
  const lines = [
    'Acme Corp gifts, November',
    '',
    'Charity ID,Gift amount,Currency,Employee email,Note',
    ...rows.map((r, i) => (i % 700 === 3 ? '' : r.map(quote).join(','))),
    'Total,123,,,',
  ];
  await writeFile(join(dir, 'gifts.csv'), lines.join('\r\n'));
  // Windows-1252, with the only accented letter far below the first megabyte's delimiter sample.
  const latin = [...lines.slice(2, 4000), ...lines.slice(2, 4000).slice(1), 'Total,1,,,']
    .join('\n')
    .replace(/N3990(?![\s\S]*N3990)/, 'Réunion');
  // Past the first 256 KB, where the delimiter is detected: the first pass learns it part-way.
  expect(Buffer.from(latin, 'latin1').indexOf('R\xe9union', 0, 'latin1')).toBeGreaterThan(256 * 1024);
  await writeFile(join(dir, 'latin.csv'), Buffer.from(latin, 'latin1'));
  const cell = (ref: string, value: string) =>
    /^[0-9.]+$/.test(value)
      ? `<c r="${ref}"><v>${value}</v></c>`
      : `<c r="${ref}" t="inlineStr"><is><t>${value.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</t></is></c>`;
  const xmlRows = [['Charity ID', 'Gift amount', 'Currency', 'Employee email', 'Note'], ...giftRows(3_000)]
    .map((r, i) => `<row r="${i + 2}">${r.map((v, c) => cell(`${'ABCDE'[c]}${i + 2}`, v)).join('')}</row>`)
    .join('');
  await writeFile(
    join(dir, 'gifts.xlsx'),
    buildXlsx({
      sheetBody: `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Gifts</t></is></c></row>${xmlRows}</sheetData>`,
    }),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('validate and build on a file read in passes', () => {
  it.each(['gifts.csv', 'gifts.xlsx', 'latin.csv'])(
    '%s: the same report and bulk file as reading it whole',
    async (name) => {
      const file = join(dir, name);
      const streamedSource = await openRowSource(file, {
        streamFrom: 1,
        survey: { between: async () => undefined },
      });
      expect(streamedSource.layout.streamed).toBe(true);

      for (const args of [
        ['validate', file, '--json'],
        ['validate', file],
        ['validate', file, '--max-issues', '5'],
      ]) {
        const whole = await cli(args, false);
        const streamed = await cli(args, true);
        expect(streamed.err).toBe(whole.err);
        expect(streamed.code).toBe(whole.code);
        expect(streamed.out).toBe(whole.out);
      }
      const report = JSON.parse((await cli(['validate', file, '--json'], true)).out);
      const codes = new Set(report.issues.map((i: { code: string }) => i.code));
      expect([...codes]).toEqual(
        expect.arrayContaining([
          'AMOUNT_UNUSUALLY_HIGH',
          'DUPLICATE_ROW',
          'AMOUNT_NOT_A_NUMBER',
          'EMAIL_INVALID',
        ]),
      );

      const wholeOut = join(dir, `${name}.whole.json.gz`);
      const streamedOut = join(dir, `${name}.streamed.json.gz`);
      const builtWhole = await cli(['build', file, '--out', wholeOut, '--skip-invalid', '--json'], false);
      const builtStreamed = await cli(
        ['build', file, '--out', streamedOut, '--skip-invalid', '--json'],
        true,
      );
      expect(builtWhole.code).toBe(0);
      expect(builtStreamed.code).toBe(0);
      expect(JSON.parse(builtStreamed.out).skippedRows).toEqual(JSON.parse(builtWhole.out).skippedRows);
      expect(gunzipSync(await readFile(streamedOut)).toString('utf8')).toBe(
        gunzipSync(await readFile(wholeOut)).toString('utf8'),
      );
    },
    120_000,
  );

  it('lists the first issues and counts the rest', async () => {
    const file = join(dir, 'gifts.csv');
    const all = JSON.parse((await cli(['validate', file, '--json'], true)).out).issues.length;
    const { out } = await cli(['validate', file, '--max-issues', '3'], true);
    const listed = out.split('\n').filter((l) => /^ {2}row \d+/.test(l));
    expect(listed).toHaveLength(3);
    expect(out).toContain(
      `  … and ${(all - 3).toLocaleString('en-US')} more issues not listed (give --max-issues ${all} to list them all, or --json).`,
    );
  });

  it('writes a progress line to stderr with --progress: rows read and percent of the bytes', async () => {
    const { err } = await cli(['validate', join(dir, 'gifts.csv'), '--progress', '--json'], true);
    expect(err).toMatch(/^(Reading|Checking|Listing) gifts\.csv: [\d,]+ rows, \d+%$/m);
  });

  it('reads a file not UTF-8 as Windows-1252 even when that shows only far into it', async () => {
    const { out } = await cli(['validate', join(dir, 'latin.csv'), '--json', '--no-row-reference'], true);
    expect(JSON.parse(out).counts.rows).toBe(7_982);
    const source = await openRowSource(join(dir, 'latin.csv'), {
      streamFrom: 1,
      survey: { between: async () => undefined },
    });
    let note = '';
    await source.eachRow(
      (row) => {
        if (row.cells.includes('Réunion')) note = 'Réunion';
      },
      { between: async () => undefined },
    );
    expect(note).toBe('Réunion');
    expect(source.layout.encoding).toBe('windows-1252');
  });
});
