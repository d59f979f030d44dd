import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatch } from './dispatch';
import { isWorkspaceRowList, workspaceRowSchema } from './workspace';
import {
  decodeLengths,
  encodeLengths,
  isPackedRows,
  packedRowsInput,
  packRows,
  unpackRows,
  type PackedRows,
} from './packedRows';
import type { Services } from './dispatch';

/** Services whose workspace.create keeps every input it is given and answers with a new workspace. */
function recordingCreate(answer: Record<string, unknown>) {
  const seen: unknown[] = [];
  const services = {
    'workspace.create': (input: unknown) => {
      seen.push(input);
      return {
        id: 'w1',
        name: 'n',
        createdAt: '2026-11-01T00:00:00.000Z',
        updatedAt: '2026-11-01T00:00:00.000Z',
        state: 'draft',
        source: { fileName: 'f.xlsx', format: 'xlsx', sheet: 'S', headerRow: 1 },
        counts: null,
        version: 0,
        ...answer,
      };
    },
  } as unknown as Services;
  return { seen, services };
}

const row = (overrides: Record<string, unknown> = {}) => ({
  key: 0,
  rowNumber: 2,
  cells: ['a'],
  ...overrides,
});

const cases: [string, unknown][] = [
  ['a good row', [row()]],
  ['no rows', []],
  ['an added row without a row number', [row({ rowNumber: null })]],
  ['empty cells', [row({ cells: [] })]],
  ['many rows', [row(), row({ key: 1, rowNumber: 3 }), row({ key: 7, cells: ['', 'x'] })]],
  ['not a list', { 0: row() }],
  ['a row that is not an object', [row(), 'row']],
  ['a row that is null', [null]],
  ['a row that is a list', [[0, 2, ['a']]]],
  ['a negative key', [row({ key: -1 })]],
  ['a fractional key', [row({ key: 1.5 })]],
  ['a key that is text', [row({ key: '1' })]],
  ['a key beyond safe integers', [row({ key: 2 ** 53 })]],
  ['an infinite key', [row({ key: Infinity })]],
  ['a missing key', [{ rowNumber: 2, cells: [] }]],
  ['row number zero', [row({ rowNumber: 0 })]],
  ['a fractional row number', [row({ rowNumber: 2.5 })]],
  ['a missing row number', [{ key: 0, cells: [] }]],
  ['cells that are not a list', [row({ cells: 'a' })]],
  ['a cell that is a number', [row({ cells: ['a', 1] })]],
  ['a cell that is null', [row({ cells: [null] })]],
  // eslint-disable-next-line no-sparse-arrays -- a hole is the case under test
  ['a hole among the cells', [row({ cells: ['a', , 'b'] })]],
  ['an unknown property', [row({ extra: 'x' })]],
  ['an unknown property set to undefined', [row({ extra: undefined })]],
];

describe('isWorkspaceRowList', () => {
  const strict = z.array(workspaceRowSchema.strict());
  it.each(cases)('agrees with zod (workspaceRowSchema, strict) on %s', (_name, value) => {
    expect(isWorkspaceRowList(value)).toBe(strict.safeParse(value).success);
  });

  it('is what main checks rows of a new workspace with', async () => {
    const { seen: created, services } = recordingCreate({
      headers: ['A'],
      rows: [row()],
      nextKey: 1,
      mapping: null,
    });
    const input = (rows: unknown) => ({
      name: 'November',
      source: { fileName: 'f.xlsx', format: 'xlsx', sheet: 'S', headerRow: 1 },
      headers: ['A'],
      rows,
      mapping: null,
    });
    const refused = await dispatch(services, 'workspace.create', input([row({ key: 'x' })]), {
      transport: 'test',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(created).toHaveLength(0);
    const answer = await dispatch(services, 'workspace.create', input([row()]), { transport: 'test' });
    // The answer carries the workspace's details, not its rows again.
    expect(answer).toMatchObject({ ok: true, value: { id: 'w1', nextKey: 1, version: 0 } });
    expect(answer.ok && 'rows' in (answer.value as object)).toBe(false);
  });
});

describe('isPackedRows', () => {
  const packed = (overrides: Record<string, unknown> = {}) => ({
    texts: 'abcde',
    lengths: encodeLengths([1, 2, 0, 2]),
    rowNumbers: [2, null],
    width: 2,
    ...overrides,
  });
  it.each<[string, unknown, boolean]>([
    ['lengths that add up to the texts', packed(), true],
    ['lengths as numbers', packed({ lengths: new Uint32Array([1, 2, 0, 2]) }), true],
    ['no rows', packed({ texts: '', lengths: '', rowNumbers: [] }), true],
    ['lengths that do not add up', packed({ texts: 'abcdef' }), false],
    ['one length too few for the rows', packed({ lengths: encodeLengths([1, 2, 2]) }), false],
    ['lengths that are not base64', packed({ lengths: 'AQAAAAIAAAAAAAAAAgAA!A==' }), false],
    ['lengths of a broken number of bytes', packed({ lengths: 'AQAA' }), false],
    ['lengths as a list', packed({ lengths: [1, 2, 0, 2] }), false],
    ['a row number of zero', packed({ rowNumbers: [0, 2] }), false],
    ['a width that is not a whole number', packed({ width: 1.5 }), false],
    ['an unknown property', packed({ keys: [0, 1] }), false],
    ['texts that are not text', packed({ texts: ['abcde'] }), false],
    ['not an object', 'abcde', false],
  ])('%s: %s', (_name, value, expected) => {
    expect(isPackedRows(value)).toBe(expected);
  });

  it('carries lengths as base64 of 32-bit numbers, small and large alike', () => {
    const lengths = [0, 1, 255, 256, 65_535, 65_536, 2 ** 31, 2 ** 32 - 1, 7];
    for (let n = 0; n <= lengths.length; n++) {
      const encoded = encodeLengths(lengths.slice(0, n));
      expect(encoded.length % 4).toBe(0);
      expect([...(decodeLengths(encoded) ?? [])]).toEqual(lengths.slice(0, n));
    }
    expect(encodeLengths([1])).toBe('AQAAAA==');
  });

  it('unpacks to rows keyed in order', () => {
    expect(unpackRows(packed() as PackedRows)).toEqual([
      { key: 0, rowNumber: 2, cells: ['a', 'bc'] },
      { key: 1, rowNumber: null, cells: ['', 'de'] },
    ]);
    const again = packRows(unpackRows(packed() as PackedRows), 2);
    expect(again.texts).toBe('abcde');
    expect([...again.lengths]).toEqual([1, 2, 0, 2]);
    expect([...again.rowNumbers]).toEqual([2, 0]);
  });
});

describe('workspace.create with packed rows', () => {
  const { seen, services } = recordingCreate({ nextKey: 2 });
  const call = (rows: Record<string, unknown>) =>
    dispatch(
      services,
      'workspace.create',
      {
        name: 'November',
        source: { fileName: 'f.xlsx', format: 'xlsx', sheet: 'S', headerRow: 1 },
        headers: ['A', 'B'],
        mapping: null,
        ...rows,
      },
      { transport: 'test' },
    );
  const input = packedRowsInput({
    texts: 'Zoë😀bcde',
    lengths: new Uint32Array([5, 2, 0, 2]),
    rowNumbers: new Int32Array([2, 0]),
    width: 2,
  });

  it('takes UTF-8 texts and 32-bit lengths, and hands the service the text decoded', async () => {
    expect([...input.rowNumbers]).toEqual([2, 0, 0, 0, 0, 0, 0, 0]);
    expect(await call({ packedRows: input })).toMatchObject({ ok: true, value: { id: 'w1' } });
    const given = (seen.at(-1) as { packedRows: PackedRows }).packedRows;
    expect(given.texts).toBe('Zoë😀bcde');
    expect(unpackRows(given)).toEqual([
      { key: 0, rowNumber: 2, cells: ['Zoë😀', 'bc'] },
      { key: 1, rowNumber: null, cells: ['', 'de'] },
    ]);
  });

  it('takes the id of rows staged ahead instead of the rows', async () => {
    const stageId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(await call({ stagedRows: stageId })).toMatchObject({ ok: true });
    expect(seen.at(-1)).toMatchObject({ stagedRows: stageId });
  });

  it('takes bytes wherever they lie in memory, as a Node Buffer holds a request body', async () => {
    // A Buffer (whose slice() is a view, not a copy) with the lengths off a 4-byte boundary.
    const body = Buffer.alloc(3 + input.lengths.byteLength);
    body.set(input.lengths, 3);
    const unaligned = body.subarray(3);
    expect(unaligned.byteOffset % 4).not.toBe(0);
    expect(await call({ packedRows: { ...input, lengths: unaligned } })).toMatchObject({ ok: true });
    const given = (seen.at(-1) as { packedRows: PackedRows }).packedRows;
    expect(unpackRows(given)[0]?.cells).toEqual(['Zoë😀', 'bc']);
  });

  it.each<[string, Record<string, unknown>]>([
    [
      'lengths that do not add up',
      { packedRows: { ...input, texts: new TextEncoder().encode('Zoë😀bcdef') } },
    ],
    ['texts that are not UTF-8', { packedRows: { ...input, texts: new Uint8Array([0x5a, 0xff, 0xfe]) } }],
    ['lengths of a broken number of bytes', { packedRows: { ...input, lengths: new Uint8Array(15) } }],
    ['row numbers as a list', { packedRows: { ...input, rowNumbers: [2, null] } }],
    ['a row number too few', { packedRows: { ...input, rowNumbers: new Uint8Array(4) } }],
    ['texts as text rather than bytes', { packedRows: { ...input, texts: 'Zoë😀bcde' } }],
    ['no rows at all', {}],
    ['rows both ways', { packedRows: input, rows: [row()] }],
    ['rows packed and staged', { packedRows: input, stagedRows: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
    ['a staged id that is no id', { stagedRows: 'last-one' }],
  ])('refuses %s', async (_name, rows) => {
    const before = seen.length;
    expect(await call(rows)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(seen).toHaveLength(before);
  });
});
