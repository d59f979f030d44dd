// Zip bombs, generated small: what a part inflates to is counted as it comes, and the file is refused
// as soon as a part or the whole passes its limit, whatever sizes the zip headers declare.
import { deflateRaw } from 'pako';
import { createDeflateRaw } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listSheets, readSpreadsheet } from '../index';
import { READ_LIMITS } from '../limits';
import { buildXlsx, buildZip, type Predeflated } from '../testing/zipWriter';
import { javaScriptInflater, type RawInflater } from './zipArchive';

const MB = 1024 * 1024;
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** `count` shared strings of 60 characters each, deflated, declaring `declaredSize` bytes. */
function sharedStringsBomb(count: number, declaredSize: number): Predeflated {
  const item = `<si><t>${'x'.repeat(60)}</t></si>`;
  const xml = `<sst xmlns="${MAIN}">${item.repeat(count)}</sst>`;
  return { deflated: deflateRaw(new TextEncoder().encode(xml)), declaredSize };
}

/** An inflater that counts the bytes it hands out, to show inflating stopped near the limit. */
function countingInflater(): { inflater: RawInflater; handedOut: () => number } {
  let total = 0;
  const inflater: RawInflater = (data, onChunk, between) =>
    javaScriptInflater(
      data,
      (chunk) => {
        total += chunk.length;
        onChunk(chunk);
      },
      between,
    );
  return { inflater, handedOut: () => total };
}

const refusal = (size: string) => ({
  code: 'SPREADSHEET_UNREADABLE',
  message: `This file would expand to more than ${size} when opened — it may be damaged or built to harm: open it in Excel and save it again.`,
});

const sheetBody = '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData>';

describe('limits on what a file inflates to', () => {
  it('refuses shared strings past the limit whose headers declare a small size, stopping early', async () => {
    // About 6 MB of XML that declares 100 bytes.
    const bytes = buildXlsx({
      sheetBody,
      predeflated: { 'xl/sharedStrings.xml': sharedStringsBomb(80_000, 100) },
    });
    expect(bytes.length).toBeLessThan(200 * 1024);
    const { inflater, handedOut } = countingInflater();
    await expect(
      readSpreadsheet(bytes, 'bomb.xlsx', { inflater, limits: { maxTextPartBytes: MB } }),
    ).rejects.toMatchObject(refusal('1 MB'));
    // One output chunk (512 KB) past the limit at most.
    expect(handedOut()).toBeLessThanOrEqual(MB + 512 * 1024);
    // The synchronous path for small parts (no inflater given) stops too.
    await expect(
      readSpreadsheet(bytes, 'bomb.xlsx', { limits: { maxTextPartBytes: MB } }),
    ).rejects.toMatchObject(refusal('1 MB'));
  });

  it('refuses at once a part whose headers declare more than the limit', async () => {
    const bytes = buildXlsx({
      sheetBody,
      predeflated: { 'xl/sharedStrings.xml': sharedStringsBomb(10, 3 * MB) },
    });
    const { inflater, handedOut } = countingInflater();
    await expect(
      readSpreadsheet(bytes, 'declared.xlsx', { inflater, limits: { maxTextPartBytes: 2 * MB } }),
    ).rejects.toMatchObject(refusal('2 MB'));
    expect(handedOut()).toBe(0);
  });

  it('refuses a worksheet past the limit for one part', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => `<row r="${i + 1}"><c><v>${i}</v></c></row>`);
    const bytes = buildXlsx({ sheetBody: `<sheetData>${rows.join('')}</sheetData>` });
    await expect(readSpreadsheet(bytes, 'rows.xlsx', { limits: { maxPartBytes: MB } })).rejects.toMatchObject(
      refusal('1 MB'),
    );
    const read = await readSpreadsheet(bytes, 'rows.xlsx', { limits: { maxPartBytes: 2 * MB } });
    expect(read.rows).toHaveLength(39_999);
  });

  it('refuses parts each under the limit that together pass the limit for the whole file', async () => {
    const bytes = buildXlsx({
      sheetBody,
      predeflated: { 'xl/sharedStrings.xml': sharedStringsBomb(20_000, 100) },
    });
    const limits = { maxTextPartBytes: 2 * MB, maxArchiveBytes: MB };
    await expect(readSpreadsheet(bytes, 'whole.xlsx', { limits })).rejects.toMatchObject(refusal('1 MB'));
  });

  it('refuses an OpenDocument file past the limits before the general reader inflates it', async () => {
    const content = sharedStringsBomb(40_000, 100);
    const bytes = buildZip({
      mimetype: 'application/vnd.oasis.opendocument.spreadsheet',
      'content.xml': content,
    });
    const limits = { maxTextPartBytes: MB };
    await expect(readSpreadsheet(bytes, 'bomb.ods', { limits })).rejects.toMatchObject(refusal('1 MB'));
    await expect(listSheets(bytes, 'bomb.ods', { limits })).rejects.toMatchObject(refusal('1 MB'));
  });

  it('refuses shared strings past the real default limit', async () => {
    // 257 MB of zeros deflate to about 250 KB; made in pieces so the test holds little memory.
    const deflater = createDeflateRaw({ level: 1 });
    const pieces: Buffer[] = [];
    deflater.on('data', (piece: Buffer) => pieces.push(piece));
    const done = new Promise((resolve) => deflater.on('end', resolve));
    const zeros = Buffer.alloc(MB);
    for (let i = 0; i < 257; i++) deflater.write(zeros);
    deflater.end();
    await done;
    const bytes = buildXlsx({
      sheetBody,
      predeflated: {
        'xl/sharedStrings.xml': { deflated: new Uint8Array(Buffer.concat(pieces)), declaredSize: 1000 },
      },
    });
    await expect(readSpreadsheet(bytes, 'default.xlsx')).rejects.toMatchObject(
      refusal(`${READ_LIMITS.maxTextPartBytes / MB} MB`),
    );
  });
});
