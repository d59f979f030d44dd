import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { cliOnEmulator, QUICK_POLLS } from '../../support/cliOnEmulator';
import '../../../electron/cli/commands/upload';

const h = cliOnEmulator({ prefix: 'dd-cli-', timeScale: 200, env: QUICK_POLLS });
const { cli } = h;

async function csv(name: string, rows: string[][]): Promise<string> {
  const path = join(h.dir, name);
  // Two title lines above the header, so spreadsheet row numbers differ from data positions.
  const text = [
    'Company gifts 2026',
    '',
    'Charity ID,Amount,Currency,Employee',
    ...rows.map((r) => r.join(',')),
  ].join('\n');
  await writeFile(path, `${text}\n`);
  return path;
}

describe('donation-desk upload / status / errors', () => {
  it('uploads with an auto-suggested mapping, waits until PROCESSED, and refuses the same file again (exit 1)', async () => {
    const file = await csv(
      'ok.csv',
      Array.from({ length: 8 }, (_, i) => [
        h.recipients[i % h.recipients.length] as string,
        `${i + 1}.50`,
        'USD',
        `A${i}`,
      ]),
    );
    const first = await cli(['upload', file, '--wait', '--json']);
    expect(first.code, first.err).toBe(0);
    const upload = JSON.parse(first.out) as {
      state: string;
      rows: number;
      workspaceName: string;
      intents: Array<{ intentId: string; state: string }>;
    };
    // Named by the file alone, as the app names it: a CSV has no sheet of its own.
    expect(upload).toMatchObject({ state: 'processed', rows: 8, workspaceName: 'ok' });
    const intentId = upload.intents.at(-1)?.intentId as string;
    const status = await cli(['status', intentId, '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({ intentId, state: 'PROCESSED', donations: 8 });
    const again = await cli(['upload', file, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.out)).toMatchObject({ error: { code: 'DUPLICATES' } });
  }, 60_000);

  it('reports an ERROR with exit 1 and prints the errors on their spreadsheet rows, also as xlsx', async () => {
    await fetch(`${h.emu.apiBaseUrl}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ partialExtractionFailure: { afterDonations: 3 } }),
    });
    const mapping = join(h.dir, 'mapping.json');
    await writeFile(
      mapping,
      JSON.stringify({
        headerRow: 3,
        columns: {
          'Charity ID': 'recipientId',
          Amount: 'amount',
          Currency: 'currencyCode',
          Employee: 'metadata.employee',
        },
      }),
    );
    const file = await csv(
      'partial.csv',
      Array.from({ length: 5 }, (_, i) => [
        h.recipients[i % h.recipients.length] as string,
        `${i + 2}.25`,
        'EUR',
        `B${i}`,
      ]),
    );
    const uploaded = await cli(['upload', file, '--mapping', mapping, '--wait', '--json']);
    expect(uploaded.code, uploaded.err).toBe(1);
    const intentId = (JSON.parse(uploaded.out) as { intents: Array<{ intentId: string }> }).intents.at(-1)
      ?.intentId as string;
    expect((await cli(['status', intentId])).code).toBe(1);

    const out = join(h.dir, 'errors.xlsx');
    const errors = await cli(['errors', intentId, '--json', '--out', out]);
    expect(errors.code).toBe(1);
    const parsed = JSON.parse(errors.out) as {
      intentId: string;
      status: string;
      form: string;
      issues: Array<Record<string, unknown>>;
    };
    expect(Object.keys(parsed)).toEqual(['intentId', 'status', 'form', 'issues']);
    expect(parsed).toMatchObject({ intentId, status: 'ERROR', form: 'donations' });
    // Data starts on spreadsheet row 4 (two title lines and the header); rows 4–6 got donations, 7–8 failed.
    expect(parsed.issues.map((i) => i.row)).toEqual([7, 8]);
    expect(Object.keys(parsed.issues[0] ?? {})).toEqual([
      'row',
      'column',
      'field',
      'code',
      'title',
      'detail',
    ]);
    const book = XLSX.read(await readFile(out));
    const sheet = XLSX.utils.sheet_to_json<string[]>(
      book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet,
      { header: 1 },
    );
    expect(sheet[0]).toEqual(['Row', 'Column', 'Field', 'Code', 'Problem', 'Detail']);
    expect(sheet.slice(1).map((r) => r[0])).toEqual([7, 8]);
  }, 60_000);

  it('exits 2 for an unreadable file or mapping and for an unknown intent', async () => {
    expect((await cli(['upload', join(h.dir, 'missing.xlsx')])).code).toBe(2);
    const bad = join(h.dir, 'bad-mapping.json');
    await writeFile(bad, '{"columns": {"A": "notATarget"}}');
    expect(
      (await cli(['upload', await csv('x.csv', [['840-1', '1', 'USD', 'x']]), '--mapping', bad])).code,
    ).toBe(2);
    expect((await cli(['status', 'no-such-intent'])).code).toBe(2);
  });
});
