import { describe, expect, it } from 'vitest';
import type { SheetRow } from '../types';
import { ChunkedDelimitedReader } from './chunkedDelimited';
import { DelimitedParser } from './delimitedParser';

/** The rows DelimitedParser reads from the whole text, as readDelimited keeps them. */
function whole(text: string, delimiter: string): SheetRow[] {
  const parser = new DelimitedParser(text, delimiter);
  const rows: SheetRow[] = [];
  let rowNumber = 0;
  for (let record = parser.next(); record; record = parser.next()) {
    rowNumber++;
    if (!(record.length === 1 && record[0] === '')) rows.push({ rowNumber, cells: record });
  }
  return rows;
}

function inPieces(
  text: string,
  delimiter: string,
  cuts: number[],
): { rows: SheetRow[]; reader: ChunkedDelimitedReader } {
  const rows: SheetRow[] = [];
  const reader = new ChunkedDelimitedReader(delimiter, (row) => rows.push(row));
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    reader.push(text.slice(from, cut));
    from = cut;
  }
  reader.finish();
  return { rows, reader };
}

const SAMPLE = [
  'Title line',
  '',
  'Name;Amount;Note',
  'Ana;1,5;"quoted; with ""quotes"""',
  '"Ben\r\nSmith";2;multi\rline',
  '',
  '',
  'Chloé;3;"unclosed at the end',
].join('\r\n');

describe('ChunkedDelimitedReader', () => {
  it('reads text cut at every position exactly as the whole text reads', () => {
    const expected = whole(SAMPLE, ';');
    for (let cut = 0; cut <= SAMPLE.length; cut++) {
      expect(inPieces(SAMPLE, ';', [cut]).rows).toEqual(expected);
    }
  });

  it('reads text cut into pieces of one to seven characters alike', () => {
    for (const text of [SAMPLE, `${SAMPLE}\n`, 'a,b\r\n\r\nc,d\r', 'x\n\n\n', '"a\n",b,\n,,\n']) {
      const delimiter = text.includes(';') ? ';' : ',';
      for (let size = 1; size <= 7; size++) {
        const cuts: number[] = [];
        for (let at = size; at < text.length; at += size) cuts.push(at);
        expect(inPieces(text, delimiter, cuts).rows).toEqual(whole(text, delimiter));
      }
    }
  });

  it('parses a long quoted field a bounded number of times, not once per piece', () => {
    const field = 'x'.repeat(200_000);
    const text = `a,"${field}"\nb,c\n`;
    const cuts: number[] = [];
    for (let at = 1000; at < text.length; at += 1000) cuts.push(at);
    let parsed = 0;
    const original = DelimitedParser.prototype.next;
    DelimitedParser.prototype.next = function (this: DelimitedParser) {
      const record = original.call(this);
      if (record) parsed += record.reduce((sum, cell) => sum + cell.length, 0);
      return record;
    };
    try {
      const { rows } = inPieces(text, ',', cuts);
      expect(rows).toEqual(whole(text, ','));
    } finally {
      DelimitedParser.prototype.next = original;
    }
    // 200 pieces; parsing the kept text only when it has doubled reads the field about 9 times.
    expect(parsed).toBeLessThan(field.length * 12);
  });
});
