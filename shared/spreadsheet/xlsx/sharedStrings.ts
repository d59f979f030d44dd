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
 * The shared-strings table: plain items (`<si><t>…</t></si>`) take a fast path, rich text
 * concatenates its runs. `xml:space` needs no handling because text is never trimmed here.
 */
export function parseSharedStrings(xml: string): string[] {
  const strings: string[] = [];
  let at = xml.indexOf('<si');
  while (at !== -1) {
    const after = xml.charCodeAt(at + 3);
    if (after !== 62 && after !== 32) {
      // `<si/>` is an empty item; anything else starting with "<si" is not an item.
      if (after === 47) strings.push('');
      at = xml.indexOf('<si', at + 3);
      continue;
    }
    const contentStart = xml.indexOf('>', at) + 1;
    const end = xml.indexOf('</si>', contentStart);
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
    at = xml.indexOf('<si', end + 5);
  }
  return strings;
}
