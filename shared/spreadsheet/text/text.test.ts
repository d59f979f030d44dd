import { describe, expect, it } from 'vitest';
import { DelimitedParser } from './delimitedParser';
import { detectDelimiter } from './delimiter';
import { decodeText } from './encoding';

function utf16(text: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const bytes = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const view = new DataView(bytes.buffer);
  let offset = 0;
  if (bom) {
    view.setUint16(0, 0xfeff, littleEndian);
    offset = 2;
  }
  for (let i = 0; i < text.length; i++) view.setUint16(offset + i * 2, text.charCodeAt(i), littleEndian);
  return bytes;
}

const SAMPLE = 'Name,Amount\nCafé,€5\n';

describe('encoding detection', () => {
  it('reads UTF-8 with and without a BOM', () => {
    const plain = new TextEncoder().encode(SAMPLE);
    expect(decodeText(plain)).toEqual({ text: SAMPLE, encoding: 'utf-8', hadBom: false });
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...plain]);
    expect(decodeText(withBom)).toEqual({ text: SAMPLE, encoding: 'utf-8', hadBom: true });
  });

  it.each([
    [true, true, 'utf-16le'],
    [false, true, 'utf-16be'],
    [true, false, 'utf-16le'],
    [false, false, 'utf-16be'],
  ])('reads UTF-16 (little-endian %s, BOM %s)', (littleEndian, bom, encoding) => {
    const decoded = decodeText(utf16(SAMPLE, littleEndian, bom));
    expect(decoded.text).toBe(SAMPLE);
    expect(decoded.encoding).toBe(encoding);
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', () => {
    // "Café,€5" as Windows-1252: é is 0xE9 and € is 0x80.
    const bytes = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x2c, 0x80, 0x35]);
    expect(decodeText(bytes)).toEqual({ text: 'Café,€5', encoding: 'windows-1252', hadBom: false });
  });

  it.each([
    [true, true, 'utf-32le'],
    [false, true, 'utf-32be'],
    [true, false, 'utf-32le'],
    [false, false, 'utf-32be'],
  ])('reads UTF-32 (little-endian %s, BOM %s), not UTF-16 with NULs', (littleEndian, bom, encoding) => {
    const text = 'Name,Amount\nZoë 😀,€5\n';
    const codes = [...(bom ? [0xfeff] : []), ...[...text].map((ch) => ch.codePointAt(0) ?? 0)];
    const bytes = new Uint8Array(codes.length * 4);
    codes.forEach((code, i) => new DataView(bytes.buffer).setUint32(i * 4, code, littleEndian));
    expect(decodeText(bytes)).toEqual({ text, encoding, hadBom: bom });
  });

  it('reads Shift-JIS, as Japanese payroll exports are written', () => {
    // "社員番号,氏名,金額 / 00123,山田 太郎,5000 / 00124,カタカナ ﾊﾝｶｸ,1200" saved as Shift-JIS.
    const hex =
      '8ed088f594d48d862c8e8196bc2c8be08a7a0d0a30303132332c8e5293632091be98592c353030300d0a' +
      '30303132342c834a835e834a836920caddb6b82c313230300d0a';
    const bytes = new Uint8Array(hex.match(/../g)!.map((pair) => parseInt(pair, 16)));
    expect(decodeText(bytes)).toEqual({
      text: '社員番号,氏名,金額\r\n00123,山田 太郎,5000\r\n00124,カタカナ ﾊﾝｶｸ,1200\r\n',
      encoding: 'shift_jis',
      hadBom: false,
    });
  });

  it('keeps Windows-1252 for Western text that also happens to decode as Shift-JIS', () => {
    // "Name,Amount / ÅSE ÖRN,5": Å (0xC5) is a half-width katakana in Shift-JIS, Ö+R a kanji pair.
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('Name,Amount\r\n'),
      0xc5,
      0x53,
      0x45,
      0x20,
      0xd6,
      0x52,
      0x4e,
      0x2c,
      0x35,
      0x0d,
      0x0a,
    ]);
    expect(decodeText(bytes)).toMatchObject({
      text: 'Name,Amount\r\nÅSE ÖRN,5\r\n',
      encoding: 'windows-1252',
    });
  });
});

describe('delimiter detection', () => {
  it.each([',', ';', '\t', '|'])('finds %j', (delimiter) => {
    const text = ['ID', 'Name', 'Amount'].join(delimiter) + '\n' + ['1', 'Ann', '5,5'].join(delimiter) + '\n';
    expect(detectDelimiter(text)).toBe(delimiter);
  });

  it('ignores delimiters inside quotes and survives a title line', () => {
    const text = 'ACME Corp donations, November\n\nName;Note;Amount\n"Smith, Ann";"a;b";"1,5"\nBob;x;2\n';
    expect(detectDelimiter(text)).toBe(';');
  });
});

describe('delimited parser', () => {
  const all = (text: string, delimiter = ','): string[][] => {
    const parser = new DelimitedParser(text, delimiter);
    const records: string[][] = [];
    for (let r = parser.next(); r; r = parser.next()) records.push(r);
    return records;
  };

  it('handles quotes, doubled quotes, embedded delimiters and newlines, and CRLF', () => {
    expect(all('a,"b,c","say ""hi""","line1\r\nline2"\r\nx,,\r\n')).toEqual([
      ['a', 'b,c', 'say "hi"', 'line1\r\nline2'],
      ['x', '', ''],
    ]);
  });

  it('keeps a blank line as an empty record and reads a last line without a newline', () => {
    expect(all('a\n\nb')).toEqual([['a'], [''], ['b']]);
  });
});
