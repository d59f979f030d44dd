import type { WorkMonitor } from '../cancellation';
import { SheetSizeGuard } from '../layout/sheetSize';
import type { ReadLimits } from '../limits';
import type { RawSheet, SheetRow, TextEncoding } from '../types';
import { DelimitedParser } from './delimitedParser';
import { detectDelimiter } from './delimiter';
import { decodeText } from './encoding';

export interface DelimitedSheet extends RawSheet {
  encoding: TextEncoding;
  delimiter: string;
}

/** What the import notes say about an encoding other than UTF-8 and UTF-16, which need no comment. */
export const ENCODING_NOTES: Partial<Record<TextEncoding, string>> = {
  'windows-1252':
    'The file is not UTF-8; it was read as Windows-1252 (Western European). Check accented letters.',
  shift_jis: 'The file is not UTF-8; it was read as Shift-JIS (Japanese). Check names and other text.',
  'utf-32le': 'The file was read as UTF-32 (little-endian).',
  'utf-32be': 'The file was read as UTF-32 (big-endian).',
};

/** Reads CSV, TSV or TXT bytes into rows; row numbers are record numbers, as Excel numbers them. */
export async function readDelimited(
  bytes: Uint8Array,
  preferredDelimiter: string,
  monitor: WorkMonitor,
  limits: Pick<ReadLimits, 'maxRows' | 'maxCells'>,
): Promise<DelimitedSheet> {
  const guard = new SheetSizeGuard(limits);
  const { text, encoding } = decodeText(bytes);
  const delimiter = detectDelimiter(text, preferredDelimiter);
  const parser = new DelimitedParser(text, delimiter);
  const rows: SheetRow[] = [];
  let rowNumber = 0;
  for (let record = parser.next(); record; record = parser.next()) {
    rowNumber++;
    if (!(record.length === 1 && record[0] === '')) {
      const row = { rowNumber, cells: record };
      guard.add(row);
      rows.push(row);
    } else if (rowNumber > limits.maxRows) guard.add({ rowNumber, cells: record });
    if ((rowNumber & 1023) === 0 && monitor.dueForYield()) {
      monitor.progress(parser.offset, parser.length);
      await monitor.yieldNow();
    }
  }
  monitor.progress(parser.length, parser.length);
  const warnings: string[] = [];
  const note = ENCODING_NOTES[encoding];
  if (note) warnings.push(note);
  return { rows, merges: [], warnings, encoding, delimiter };
}
