import { describe, expect, it } from 'vitest';
import { dispatch, type Services } from './dispatch';
import {
  isWorkspaceRowList,
  MAX_WORKSPACE_CELLS,
  MAX_WORKSPACE_COLUMNS,
  MAX_WORKSPACE_ROWS,
  withinWorkspaceLimits,
} from './workspace';
import { packedRowsInput } from './packedRows';

const source = { fileName: 'f.xlsx', format: 'xlsx', sheet: 'S', headerRow: 1 };

/** Services whose workspace.create must never be reached. */
function neverCreate() {
  let calls = 0;
  const services = {
    'workspace.create': () => {
      calls++;
      throw new Error('reached');
    },
  } as unknown as Services;
  return { services, calls: () => calls };
}

describe('workspace size limits', () => {
  it('are the worksheet limits of Excel, with room for 16 columns on every row', () => {
    expect(MAX_WORKSPACE_ROWS).toBe(1_048_576);
    expect(MAX_WORKSPACE_CELLS).toBe(16_777_216);
    expect(withinWorkspaceLimits(MAX_WORKSPACE_ROWS, 16)).toBe(true);
    expect(withinWorkspaceLimits(MAX_WORKSPACE_ROWS + 1, 0)).toBe(false);
    expect(withinWorkspaceLimits(30_000, 100)).toBe(true);
    expect(withinWorkspaceLimits(MAX_WORKSPACE_ROWS, 17)).toBe(false);
    expect(withinWorkspaceLimits(1, MAX_WORKSPACE_COLUMNS + 1)).toBe(false);
  });

  it('refuses fifty million empty packed rows before unpacking them, with the limit in the message', async () => {
    const { services, calls } = neverCreate();
    // Zero-width rows: no texts, no lengths, one row number each (a 200 MB body, under the body limit).
    const rowNumbers = new Uint8Array(50_000_000 * 4);
    const packed = { texts: new Uint8Array(0), lengths: new Uint8Array(0), rowNumbers, width: 0 };
    const started = process.hrtime.bigint();
    const answer = await dispatch(
      services,
      'workspace.create',
      { name: 'n', source, headers: [], packedRows: packed, mapping: null },
      { transport: 'test' },
    );
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(answer)).toContain('1,048,576 rows');
    expect(calls()).toBe(0);
    // Refused by its size alone: nothing was turned into fifty million row numbers.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(5);
  });

  it('takes packed rows up to the limit', async () => {
    let rows = -1;
    const services = {
      'workspace.stageRows': (input: { packedRows: { rowNumbers: unknown[] } }) => {
        rows = input.packedRows.rowNumbers.length;
        return { stageId: '00000000-0000-4000-8000-000000000000', rowCount: rows };
      },
    } as unknown as Services;
    const packed = packedRowsInput({
      texts: '',
      lengths: new Uint32Array(0),
      rowNumbers: new Int32Array(MAX_WORKSPACE_ROWS),
      width: 0,
    });
    const answer = await dispatch(
      services,
      'workspace.stageRows',
      { packedRows: packed },
      { transport: 'test' },
    );
    expect(answer).toMatchObject({ ok: true });
    expect(rows).toBe(MAX_WORKSPACE_ROWS);
  });

  it('refuses a row list over the row, column or cell limit', () => {
    const row = (cells: number) => ({ key: 0, rowNumber: null, cells: new Array<string>(cells).fill('') });
    expect(isWorkspaceRowList([row(MAX_WORKSPACE_COLUMNS)])).toBe(true);
    expect(isWorkspaceRowList([row(MAX_WORKSPACE_COLUMNS + 1)])).toBe(false);
    const many = new Array(MAX_WORKSPACE_ROWS + 1).fill(row(0));
    expect(isWorkspaceRowList(many)).toBe(false);
    const wide = new Array(Math.floor(MAX_WORKSPACE_CELLS / 1000) + 1).fill(row(1000));
    expect(isWorkspaceRowList(wide)).toBe(false);
  });
});
