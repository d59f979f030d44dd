import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetRow } from '../../../shared/spreadsheet';
import { readWorkspaceInput } from './workspaceInput';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ws-input-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readWorkspaceInput', () => {
  it('reads a file in passes to the same workspace input as reading it whole, totals row and all', async () => {
    const lines = ['Monthly giving export', '', 'Charity ID,Amount,Currency,Note'];
    for (let r = 0; r < 40; r++) lines.push(`250-1000${r % 10},${r + 1}.00,EUR,"note ${r}, with a comma"`);
    lines.push(',820.00,,');
    lines.push('Total,820.00,,');
    const file = join(dir, 'export.csv');
    await writeFile(file, `${lines.join('\r\n')}\r\n`);
    const read = async (streamFrom?: number) => {
      const { eachRow, ...input } = await readWorkspaceInput(file, undefined, undefined, streamFrom);
      const rows: SheetRow[] = [];
      let pauses = 0;
      const totalsRow = await eachRow(
        (row) => rows.push(row),
        async () => void pauses++,
      );
      return { input, rows, totalsRow, pauses };
    };
    const whole = await read();
    const streamed = await read(16);
    expect(whole.rows).toHaveLength(41);
    expect(whole.totalsRow?.cells[0]).toBe('Total');
    expect(streamed.input).toEqual(whole.input);
    expect(streamed.rows).toEqual(whole.rows);
    expect(streamed.totalsRow).toEqual(whole.totalsRow);
    expect(streamed.pauses).toBeGreaterThan(0);
  });

  it('refuses a file that cannot be read as a usage problem', async () => {
    await expect(
      readWorkspaceInput(join(dir, 'missing.csv'), undefined, undefined, 16),
    ).rejects.toMatchObject({
      code: 'USAGE',
    });
  });
});
