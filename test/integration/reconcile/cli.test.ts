import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cliInProcess';
import '../../../electron/cli/commands/donations';
import '../../../electron/cli/commands/report';
import { openDesk, startSandbox, uploadGifts, type GiftRow, type Sandbox } from './harness';

let s: Sandbox;
let dir: string;
let bulkId: string;

const cli = (args: string[]) => runCliInProcess(s.emu, dir, args);

beforeAll(async () => {
  s = await startSandbox();
  dir = await mkdtemp(join(tmpdir(), 'dd-reconcile-cli-'));
  // The upload goes through the same data folder and environment the CLI then uses.
  const desk = await openDesk(s, { custom: true, dataDir: join(dir, 'data') });
  const gifts: GiftRow[] = Array.from({ length: 11 }, (_, i) => ({
    recipient: s.good[i % s.good.length] as string,
    amount: `${i + 1}.50`,
    currency: 'USD',
  }));
  gifts[3] = { recipient: s.unknownCause, amount: '4.50', currency: 'USD', employee: '=HYPERLINK("x")' };
  bulkId = await uploadGifts(s, desk, gifts);
  await desk.runtime.close();
  // Far enough for every donation to have been initiated or declined.
  await s.emu.advance(600);
}, 60_000);

afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

const MONTH = new Date().toISOString().slice(0, 7);

describe('donation-desk report', () => {
  it('does not reconcile before the donations were read, and says so with exit code 1', async () => {
    const run = await cli(['report', '--month', MONTH, '--cached', '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out) as {
      reconciled: boolean;
      lines: Array<{ submitted: { count: number } }>;
    };
    expect(report.reconciled).toBe(false);
    expect(report.lines[0]?.submitted.count).toBe(11);
  });

  it('refuses a month that is not YYYY-MM', async () => {
    const run = await cli(['report', '--month', '11/2026']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('YYYY-MM');
  });
});

describe('donation-desk donations', () => {
  it('lists every page as JSON and writes a neutralised xlsx', async () => {
    const out = join(dir, 'donations.xlsx');
    const run = await cli(['donations', '--page-size', '2', '--json', '--out', out]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const body = JSON.parse(run.out) as {
      donations: Array<{ id: string; state: string; bulkId: string; row: { rowKey: number } | null }>;
      pages: number;
    };
    expect(body.pages).toBe(6);
    expect(body.donations).toHaveLength(11);
    expect(new Set(body.donations.map((d) => d.row?.rowKey))).toEqual(
      new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
    );
    expect(body.donations.every((d) => d.bulkId === bulkId)).toBe(true);
    expect(body.donations.find((d) => d.row?.rowKey === 4)?.state).toBe('DECLINED');

    const book = XLSX.read(await readFile(out));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Donations as XLSX.WorkSheet);
    expect(rows).toHaveLength(11);
    const declined = rows.find((r) => r['Row key'] === 4);
    expect(declined?.State).toBe('DECLINED');
    expect(declined?.['State in words']).toBe('Declined');
    expect(declined?.['Amount (minor units)']).toBe(450);
    expect(String(declined?.Errors)).toContain('RECIPIENT_NOT_FOUND');
    expect(String(declined?.Metadata)).toContain('employee==HYPERLINK');
    // No cell of the sheet may start like a formula.
    for (const row of rows) for (const v of Object.values(row)) expect(String(v)).not.toMatch(/^[=+@]/);
  });

  it('filters by status and refuses an unknown one', async () => {
    const declined = await cli(['donations', '--status', 'declined', '--bulk', bulkId]);
    expect(declined.code).toBe(0);
    expect(declined.out).toContain('1 donation, 1 page read.');
    expect(declined.out).toMatch(/ Declined +\$4\.50 /);
    expect(declined.out).toContain('The service does not know this recipient (RECIPIENT_NOT_FOUND)');
    const bad = await cli(['donations', '--status', 'LOST']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('Unknown status');
  });

  it('reports the month after reading the service: reconciled, with an xlsx of it', async () => {
    const out = join(dir, 'report.xlsx');
    const run = await cli(['report', '--month', MONTH, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('The month reconciles.');
    expect(run.out).toContain(': 1 upload and 0 donations sent one by one');
    expect(run.out).toMatch(/Submitted +11 +\$71\.50/);
    expect(run.out).not.toContain('minor units');
    const book = XLSX.read(await readFile(out));
    const [line] = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Summary as XLSX.WorkSheet);
    // 1.50 + 2.50 + ... + 11.50 USD.
    expect(line?.['Submitted (minor units)']).toBe(
      Array.from({ length: 11 }, (_, i) => (i + 1) * 100 + 50).reduce((a, b) => a + b),
    );
    expect(line?.['Declined, open (count)']).toBe(1);
    expect(line?.['Declined, open (minor units)']).toBe(450);
    expect(line?.Reconciled).toBe('yes');
    const other = await cli(['report', '--month', '2001-01', '--cached', '--json']);
    expect(JSON.parse(other.out)).toMatchObject({ uploads: [], lines: [], reconciled: true });
  });
});
