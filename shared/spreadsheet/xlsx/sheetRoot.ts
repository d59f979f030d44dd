import { FastReaderUnsupported } from './fastReaderUnsupported';
import { mainNamespacePrefix, PrefixStripper } from './namespacePrefix';

/** The root element is looked for in the sheet's first bytes only. */
export const ROOT_SEARCH_BYTES = 4096;
const latin1 = new TextDecoder('latin1');

/**
 * Reads the worksheet's root element from the first bytes of its XML: `undefined` while more bytes
 * are needed, `null` for unprefixed markup, or a stripper for a sheet whose elements carry a prefix
 * bound to the SpreadsheetML namespace (`<x:worksheet xmlns:x="…/main">`, as ClosedXML and the Open
 * XML SDK write), which then has the prefix taken off as the bytes arrive.
 */
export function readSheetRoot(head: Uint8Array, final: boolean): PrefixStripper | null | undefined {
  const text = latin1.decode(head.subarray(0, Math.min(head.length, ROOT_SEARCH_BYTES)));
  const root = /<([A-Za-z_][\w.-]*:)?worksheet[\s>/]/.exec(text);
  if (!root) {
    if (head.length < ROOT_SEARCH_BYTES && !final) return undefined;
    if (/<[\w.-]+:worksheet[\s>]/.test(text))
      throw new FastReaderUnsupported('its sheet XML has a prefix bound to an unknown namespace');
    return null;
  }
  const prefix = root[1];
  if (!prefix) return null;
  const rootTagEnd = text.indexOf('>', root.index);
  if (rootTagEnd === -1 && !final && head.length < ROOT_SEARCH_BYTES) return undefined;
  const bound = mainNamespacePrefix(text.slice(root.index, rootTagEnd === -1 ? undefined : rootTagEnd));
  if (bound !== prefix.slice(0, -1))
    throw new FastReaderUnsupported('its sheet XML uses a namespace prefix the fast reader does not know');
  return new PrefixStripper(bound);
}
