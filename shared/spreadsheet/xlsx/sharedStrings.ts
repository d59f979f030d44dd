import { decodeXmlText, detach } from './xmlText';

/** Concatenates the `<t>` runs of one rich-text item, leaving out phonetic guides (`<rPh>`). */
export function richText(xml: string, start: number, end: number): string {
  let text = '';
  let at = start;
  while (at < end) {
    const open = xml.indexOf('<', at);
    if (open === -1 || open >= end) break;
    if (xml.startsWith('<rPh', open)) {
      const close = xml.indexOf('</rPh>', open);
      at = close === -1 || close > end ? end : close + 6;
      continue;
    }
    const next = xml.charCodeAt(open + 2);
    if (xml.charCodeAt(open + 1) === 116 && (next === 62 || next === 32 || next === 47)) {
      const tagEnd = xml.indexOf('>', open);
      if (xml.charCodeAt(tagEnd - 1) === 47) {
        at = tagEnd + 1;
        continue;
      }
      const close = xml.indexOf('</t>', tagEnd);
      const stop = close === -1 || close > end ? end : close;
      text += xml.slice(tagEnd + 1, stop);
      at = stop + 4;
      continue;
    }
    at = open + 1;
  }
  return text;
}

/**
 * The item element's name right at `at`: `<si` (`<sstItem` in Excel 2007 beta workbooks), and the
 * index just after the name, or -1 when `at` starts some other element.
 */
function itemNameEnd(xml: string, at: number): number {
  if (xml.startsWith('<si', at)) return at + 3;
  if (xml.startsWith('<sstItem', at)) return at + 8;
  return -1;
}

const nextItem = (xml: string, from: number): number => {
  const si = xml.indexOf('<si', from);
  const beta = xml.indexOf('<sstItem', from);
  if (beta === -1) return si;
  return si === -1 ? beta : Math.min(si, beta);
};

/**
 * The shared-strings table: plain items (`<si><t>…</t></si>`) take a fast path, rich text
 * concatenates its runs. `xml:space` needs no handling because text is never trimmed here.
 */
export function parseSharedStrings(xml: string): string[] {
  const strings: string[] = [];
  const beta = xml.indexOf('<sstItem') !== -1;
  const close = beta ? '</sstItem>' : '</si>';
  let at = beta ? nextItem(xml, 0) : xml.indexOf('<si');
  while (at !== -1) {
    const nameEnd = itemNameEnd(xml, at);
    const after = xml.charCodeAt(nameEnd);
    if (nameEnd === -1 || (after !== 62 && after !== 32)) {
      // `<si/>` is an empty item; anything else starting with "<si" is not an item.
      if (after === 47) strings.push('');
      at = beta ? nextItem(xml, at + 3) : xml.indexOf('<si', at + 3);
      continue;
    }
    const contentStart = xml.indexOf('>', at) + 1;
    const end = xml.indexOf(close, contentStart);
    if (end === -1) break;
    let text: string;
    if (
      xml.startsWith('<t>', contentStart) &&
      xml.startsWith('</t>', end - 4) &&
      xml.indexOf('<', contentStart + 3) === end - 4
    ) {
      text = xml.slice(contentStart + 3, end - 4);
    } else {
      text = richText(xml, contentStart, end);
    }
    strings.push(detach(decodeXmlText(text)));
    at = beta ? nextItem(xml, end + close.length) : xml.indexOf('<si', end + 5);
  }
  return strings;
}
