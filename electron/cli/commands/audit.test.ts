import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeskDatabase } from '../../services/db/deskDatabase';
import { AuditStore } from '../../services/audit/auditStore';
import { EXIT, runCli } from '../main';
import './audit';

let dir: string;

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
      version: 't',
    },
  };
}

const run = (args: string[], streams = io()) => runCli(['--data-dir', dir, 'audit', ...args], streams.io);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-audit-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function seed() {
  const db = DeskDatabase.open(dir);
  const store = new AuditStore(db);
  const base = { person: 'ana', computer: 'PC-1', environment: 'production' };
  store.insert({
    ...base,
    at: '2026-10-31T23:00:00.000Z',
    action: 'import',
    workspaceId: 'w1',
    details: { fileName: 'oct.xlsx', rows: 2 },
  });
  store.insert({
    ...base,
    at: '2026-11-02T09:00:00.000Z',
    action: 'upload',
    workspaceId: 'w1',
    uploadId: 'u1',
    details: {
      rows: 2,
      totals: [{ currencyCode: 'EUR', count: 2, amount: 1250 }],
      files: [{ sha256: 'ab'.repeat(32) }],
    },
  });
  store.insert({
    ...base,
    person: '=ben',
    at: '2026-11-03T10:00:00.000Z',
    action: 'dismiss',
    donationId: 'd1',
    details: { reason: '+ closed' },
  });
  db.close();
}

describe('donation-desk audit', () => {
  it('writes the filtered trail to xlsx, cells as text and neutralised, newest first', async () => {
    seed();
    const out = join(dir, 'trail.xlsx');
    const streams = io();
    expect(await run(['--since', '2026-11-01', '--out', out], streams)).toBe(EXIT.ok);
    expect(streams.out[0]).toMatch(/^Wrote 2 entries of the audit trail to .*trail\.xlsx\.$/);
    const book = XLSX.read(await readFile(out));
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets['Audit trail']!, { header: 1 });
    expect(rows[0]).toContain('When (UTC)');
    expect(rows.slice(1).map((r) => r[6])).toEqual(['dismiss', 'upload']);
    expect(rows[1]?.[2]).toBe("'=ben");
    expect(rows[2]?.[7]).toMatch(/2 rows: €12\.50 in 2 rows · 1 file, SHA-256 abab/);
  });

  it('writes CSV by the extension, narrows to one upload, and prints JSON', async () => {
    seed();
    const out = join(dir, 'u1.csv');
    const streams = io();
    expect(await run(['--upload', 'u1', '--json', '--out', out], streams)).toBe(EXIT.ok);
    expect(JSON.parse(streams.out.join('\n'))).toMatchObject({ ok: true, format: 'csv', entries: 1 });
    const csv = await readFile(out, 'utf8');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(csv).toContain(',u1,');
    const printed = io();
    expect(await run(['--workspace', 'w1', '--json'], printed)).toBe(EXIT.ok);
    const { entries } = JSON.parse(printed.out.join('\n')) as { entries: Array<{ action: string }> };
    expect(entries.map((e) => e.action)).toEqual(['upload', 'import']);
  });

  it('exits 2 with the reason for a missing --out, a wrong extension, a bad date or no database', async () => {
    const none = io();
    expect(await run(['--out', join(dir, 'a.csv')], none)).toBe(EXIT.usage);
    expect(none.err.join('')).toMatch(/no database in .* yet/);
    expect(existsSync(join(dir, 'a.csv'))).toBe(false);
    seed();
    const noOut = io();
    expect(await run([], noOut)).toBe(EXIT.usage);
    expect(noOut.err.join('')).toMatch(/--out FILE\.xlsx or --out FILE\.csv/);
    const pdf = io();
    expect(await run(['--out', 'trail.pdf'], pdf)).toBe(EXIT.usage);
    expect(pdf.err.join('')).toMatch(/\.xlsx or \.csv/);
    const date = io();
    expect(await run(['--since', '1/11/2026', '--out', join(dir, 'x.csv')], date)).toBe(EXIT.usage);
    expect(date.err.join('')).toMatch(/--since: Give the date as YYYY-MM-DD/);
    const impossible = io();
    expect(await run(['--until', '2026-02-30', '--out', join(dir, 'x.csv')], impossible)).toBe(EXIT.usage);
    expect(impossible.err.join('')).toMatch(/"2026-02-30" is not a day/);
  });
});
