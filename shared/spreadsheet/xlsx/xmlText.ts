const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
/** OOXML escapes characters XML cannot hold (like CR) as _xHHHH_; _x005F_ escapes the underscore. */
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

function decodeEntity(_match: string, body: string): string {
  if (body.charCodeAt(0) !== 35) return NAMED_ENTITIES[body] ?? '';
  const code = body.charCodeAt(1) === 120 ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/g;

const decodeEntities = (text: string): string =>
  text.indexOf('&') === -1 ? text : text.replace(ENTITY, decodeEntity);

/**
 * Text content as written in the cell, in XML's order: line ends normalised first (a raw CR LF or
 * lone CR is LF, as any XML parser reads it; `&#13;` stays CR), then entities (none inside CDATA
 * sections, whose text is literal), then OOXML's _xHHHH_ escapes, so `_x000D_` + CR LF is CR LF.
 */
export function decodeXmlText(text: string): string {
  let decoded = text;
  if (decoded.indexOf('\r') !== -1) decoded = decoded.replace(/\r\n?/g, '\n');
  if (decoded.indexOf('<![CDATA[') !== -1) {
    let plain = '';
    let at = 0;
    CDATA.lastIndex = 0;
    for (let match = CDATA.exec(decoded); match; match = CDATA.exec(decoded)) {
      plain += decodeEntities(decoded.slice(at, match.index)) + (match[1] ?? '');
      at = match.index + match[0].length;
    }
    decoded = plain + decodeEntities(decoded.slice(at));
  } else {
    decoded = decodeEntities(decoded);
  }
  if (decoded.indexOf('_x') !== -1) {
    decoded = decoded.replace(OOXML_ESCAPE, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return decoded;
}

/** Attribute values only need XML entities decoded. */
export function decodeXmlAttribute(text: string): string {
  return decodeEntities(text);
}

/**
 * A copy of `text` that does not share memory with the string it was sliced from. V8 keeps long
 * slices as views into their parent; a cell value must not keep a whole XML chunk alive.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** Attributes of one start tag, for the small parts (workbook, relationships, styles). */
export function readAttributes(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  for (let match = pattern.exec(tag); match; match = pattern.exec(tag)) {
    attributes.set(match[1] ?? '', decodeXmlAttribute(match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

/** Every start tag of an element (`<name ...>` or `<name .../>`) in document order. */
export function findStartTags(xml: string, name: string): string[] {
  const tags: string[] = [];
  const open = `<${name}`;
  for (let at = xml.indexOf(open); at !== -1; at = xml.indexOf(open, at + open.length)) {
    const next = xml.charCodeAt(at + open.length);
    // The name must end here: "<sheet" must not match "<sheets".
    if (next !== 32 && next !== 62 && next !== 47 && next !== 9 && next !== 10 && next !== 13) continue;
    const end = xml.indexOf('>', at);
    if (end === -1) break;
    tags.push(xml.slice(at, end + 1));
  }
  return tags;
}
