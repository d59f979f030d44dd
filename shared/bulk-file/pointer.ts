/** Where an error points: the donation's position in the file when the pointer says, and the attribute path. */
export interface PointerTarget {
  /** Position in the file's `data` array, when the pointer is absolute (`/data/3/...`). */
  index?: number;
  /** Donation attribute path (`destination.recipientId`, `metadata.<key>`), or '' for the whole donation/file. */
  field: string;
}

function decodeSegment(segment: string): string {
  // RFC 6901 escapes; ~1 first so "~01" stays "~1".
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function splitPointer(pointer: string): string[] {
  let p = pointer.trim();
  if (p.startsWith('#')) {
    // URI fragment form of a JSON pointer: percent-encoded.
    try {
      p = decodeURIComponent(p.slice(1));
    } catch {
      p = p.slice(1);
    }
  }
  if (p.startsWith('/')) return p.slice(1).split('/').map(decodeSegment);
  // Dotted paths some services emit: "data[3].attributes.funds.amount", "funds.amount".
  return p
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '');
}

/**
 * Normalises an error's `source.pointer` in any of the forms seen: relative to the donation
 * (`/attributes/destination/recipientId`), absolute in the file (`/data/3/attributes/...`), without
 * an index (`/data/attributes/...`), bare (`/destination/recipientId`), as a URI fragment, or dotted.
 * Metadata keys keep their spaces: `/attributes/metadata/Employee ID` → `metadata.Employee ID`.
 */
export function normalisePointer(pointer: string | null | undefined): PointerTarget {
  if (!pointer) return { field: '' };
  let segments = splitPointer(pointer);
  let index: number | undefined;
  if (segments[0] === 'data') {
    segments = segments.slice(1);
    if (segments[0] !== undefined && /^\d+$/.test(segments[0])) {
      index = Number(segments[0]);
      segments = segments.slice(1);
    }
  }
  if (segments[0] === 'attributes') segments = segments.slice(1);
  // A metadata key may itself hold characters a path would split on; keep it whole.
  const field =
    segments[0] === 'metadata' && segments.length > 1
      ? `metadata.${segments.slice(1).join('/')}`
      : segments.join('.');
  return index === undefined ? { field } : { index, field };
}
