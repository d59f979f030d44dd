import { METADATA_KEY_MAX } from '../donation';

/**
 * Makes a spreadsheet header into a valid metadata key (letters, digits, space, underscore, dash;
 * 1–64): accents dropped ("Société" → "Societe"), other characters become spaces, spaces collapsed,
 * cut to 64. `toMetadataKey("Employee ID#")` → "Employee ID". Empty results become "Column".
 */
export function toMetadataKey(header: string): string {
  const key = header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 _-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, METADATA_KEY_MAX)
    .trim();
  return key === '' ? 'Column' : key;
}

/** A key not yet in `taken`: "Note", then "Note 2", "Note 3"… (still within 64 characters). */
export function uniqueMetadataKey(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`;
    const candidate = base.slice(0, METADATA_KEY_MAX - suffix.length).trimEnd() + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
