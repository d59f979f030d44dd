/**
 * SpreadsheetML written with a namespace prefix on every element (`<x:row>`, `<x:c>`: ClosedXML and
 * the Open XML SDK, common in exports from .NET payroll and HR systems) is the same markup once the
 * prefix is taken off. The readers look for unprefixed names, so the prefix is removed first.
 */

/** SpreadsheetML's namespace, transitional and Strict Open XML (whose markup is the same here). */
const MAIN_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
]);
const LT = 60;
const SLASH = 47;

/** The prefix a start tag binds to the SpreadsheetML namespace (`xmlns:x="…/main"`), if any. */
export function mainNamespacePrefix(startTag: string): string | undefined {
  const pattern = /xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']([^"']*)["']/g;
  for (let match = pattern.exec(startTag); match; match = pattern.exec(startTag)) {
    if (MAIN_NAMESPACES.has(match[2] ?? '')) return match[1];
  }
  return undefined;
}

/**
 * A small part (workbook, relationships, styles, shared strings) with the prefix of its root element
 * taken off every element, when the root has one. Unprefixed parts are returned as they are.
 */
export function withoutRootPrefix(xml: string): string {
  const root = /<([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*[\s>/]/.exec(xml);
  if (!root) return xml;
  const before = xml.slice(0, root.index);
  // The root is the first element: only the declaration, comments and whitespace precede it.
  if (/<[A-Za-z_]/.test(before)) return xml;
  const prefix = root[1] ?? '';
  return xml.replace(new RegExp(`<(/?)${prefix.replace(/\./g, '\\.')}:`, 'g'), '<$1');
}

/**
 * Takes a prefix off every element of XML bytes that arrive in pieces. A tag split between pieces
 * (`<x` | `:row`) is held back and completed by the next piece.
 */
export class PrefixStripper {
  private readonly pattern: Uint8Array;
  private carry = new Uint8Array(0);

  constructor(prefix: string) {
    this.pattern = new TextEncoder().encode(`${prefix}:`);
  }

  strip(piece: Uint8Array): Uint8Array {
    let input = piece;
    if (this.carry.length > 0) {
      input = new Uint8Array(this.carry.length + piece.length);
      input.set(this.carry);
      input.set(piece, this.carry.length);
    }
    const pattern = this.pattern;
    const length = pattern.length;
    let end = input.length;
    const lastOpen = input.lastIndexOf(LT);
    if (lastOpen !== -1 && input.length - lastOpen < length + 2) end = lastOpen;
    this.carry = input.slice(end);
    const out = new Uint8Array(end);
    let written = 0;
    let read = 0;
    while (read < end) {
      const open = input.indexOf(LT, read);
      const stop = open === -1 || open >= end ? end : open + 1;
      out.set(input.subarray(read, stop), written);
      written += stop - read;
      read = stop;
      if (open === -1 || open >= end) break;
      if (input[read] === SLASH) {
        out[written++] = SLASH;
        read++;
      }
      let matches = true;
      for (let k = 0; k < length; k++) {
        if (input[read + k] !== pattern[k]) {
          matches = false;
          break;
        }
      }
      if (matches) read += length;
    }
    return out.subarray(0, written);
  }

  /** What was held back at the end of the last piece. */
  flush(): Uint8Array {
    const rest = this.carry;
    this.carry = new Uint8Array(0);
    return rest;
  }
}
