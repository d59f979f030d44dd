/** A run of snippet text, emphasised or not. Only ever rendered as a React text node. */
export interface SnippetPart {
  text: string;
  em: boolean;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * The service HTML-escapes snippet text, so entities are turned back into characters for display.
 * Unknown entities and invalid code points stay as they were written.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/**
 * Splits a snippet on `<em>` and `</em>` (any case) and nothing else: every other tag, attribute or
 * script stays visible text. Nested `<em>` count as one emphasis; a stray `</em>` is dropped; an
 * unclosed `<em>` emphasises to the end. Entities are decoded after splitting, so an escaped
 * `&lt;em&gt;` is shown as the characters, never as emphasis.
 */
export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let depth = 0;
  for (const piece of snippet.split(/(<\/?em>)/i)) {
    const tag = piece.toLowerCase();
    if (tag === '<em>') {
      depth += 1;
      continue;
    }
    if (tag === '</em>') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (!piece) continue;
    const text = decodeEntities(piece);
    const em = depth > 0;
    const last = parts[parts.length - 1];
    if (last && last.em === em) last.text += text;
    else parts.push({ text, em });
  }
  return parts;
}
