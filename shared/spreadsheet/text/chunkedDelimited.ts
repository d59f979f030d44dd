import type { SheetRow } from '../types';
import { DelimitedParser } from './delimitedParser';

/**
 * Delimited text that arrives in pieces (a file read from disk a megabyte at a time), turned into
 * records exactly as DelimitedParser reads the whole text: row numbers are record numbers, and
 * empty records (blank lines) are counted but not handed out.
 *
 * Only the unfinished record at the end of a piece is kept. It is parsed again only once the text
 * kept has doubled, so a quoted field of hundreds of megabytes costs a bounded number of passes,
 * not one per piece.
 */
export class ChunkedDelimitedReader {
  private text = '';
  /** The length the kept text must reach before an unfinished record is tried again. */
  private retryAt = 0;
  private records = 0;

  constructor(
    private readonly delimiter: string,
    private readonly onRow: (row: SheetRow) => void,
  ) {}

  /** Records read so far, blank ones included. */
  get recordsRead(): number {
    return this.records;
  }

  push(piece: string): void {
    if (piece === '') return;
    this.text += piece;
    if (this.text.length >= this.retryAt) this.drain(false);
  }

  /** The end of the text: whatever is kept is the last record. */
  finish(): void {
    this.drain(true);
    this.text = '';
  }

  private drain(final: boolean): void {
    const text = this.text;
    const parser = new DelimitedParser(text, this.delimiter);
    let consumed = 0;
    for (let record = parser.next(); record; record = parser.next()) {
      // A record that reaches the end of the text may go on in the next piece (a quoted field, a
      // line end split between CR and LF): it waits for more text.
      if (!final && parser.offset >= text.length) break;
      consumed = parser.offset;
      this.records++;
      if (!(record.length === 1 && record[0] === '')) this.onRow({ rowNumber: this.records, cells: record });
    }
    this.text = consumed === 0 ? text : text.slice(consumed);
    this.retryAt = Math.max(this.text.length * 2, 1);
  }
}
