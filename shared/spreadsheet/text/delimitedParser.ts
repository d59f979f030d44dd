const QUOTE = 34;
const CR = 13;
const LF = 10;

/**
 * A pull parser for delimited text (RFC 4180 quoting, any of CR, LF or CRLF as line ends). It
 * hands out one record at a time so the caller can pause between records to yield or cancel.
 * A quote that opens in the middle of a field is taken literally, as Excel does.
 */
export class DelimitedParser {
  private position = 0;
  private readonly delimiterCode: number;

  constructor(
    private readonly text: string,
    delimiter: string,
  ) {
    this.delimiterCode = delimiter.charCodeAt(0);
  }

  /** Characters consumed so far, for progress. */
  get offset(): number {
    return this.position;
  }

  get length(): number {
    return this.text.length;
  }

  /** The next record's fields, or undefined at the end of the text. */
  next(): string[] | undefined {
    const text = this.text;
    const end = text.length;
    if (this.position >= end) return undefined;
    const fields: string[] = [];
    let i = this.position;
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        let value = '';
        let segmentStart = i + 1;
        i++;
        for (;;) {
          const close = text.indexOf('"', i);
          if (close === -1) {
            // An unclosed quote runs to the end of the file, as spreadsheet programs read it.
            value += text.slice(segmentStart);
            i = end;
            break;
          }
          if (text.charCodeAt(close + 1) === QUOTE) {
            value += text.slice(segmentStart, close + 1);
            i = close + 2;
            segmentStart = i;
            continue;
          }
          value += text.slice(segmentStart, close);
          i = close + 1;
          break;
        }
        // Anything between the closing quote and the delimiter is kept, not dropped.
        const rest = this.scanUnquoted(i);
        fields.push(rest === i ? value : value + text.slice(i, rest));
        i = rest;
      } else {
        const stop = this.scanUnquoted(i);
        fields.push(text.slice(i, stop));
        i = stop;
      }
      if (i >= end) {
        this.position = end;
        return fields;
      }
      const code = text.charCodeAt(i);
      if (code === this.delimiterCode) {
        i++;
        if (i >= end) {
          fields.push('');
          this.position = end;
          return fields;
        }
        continue;
      }
      // A line end closes the record.
      this.position = code === CR && text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
      return fields;
    }
  }

  private scanUnquoted(from: number): number {
    const text = this.text;
    const delimiter = this.delimiterCode;
    let i = from;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === delimiter || code === LF || code === CR) break;
    }
    return i;
  }
}
