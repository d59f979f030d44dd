import {
  BASE_SYNONYMS,
  CONTACT_FIELDS,
  CONTACT_SYNONYMS,
  MAX_ROW_CONTACTS,
  isLocationTarget,
  type ContactField,
  type LocationTarget,
} from './targets';

/** Which column (0-based) feeds each target; a target not present is not mapped. */
export type LocationMapping = Partial<Record<LocationTarget, number>>;

/** Lower-case words only: "E-Mail Address" → "e mail address", "ReferenceId" → "reference id". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function contactTarget(words: string): LocationTarget | null {
  // "contact 2 email", "contact email", "primary contact email", "contact2 first name"
  const match = /^(?:primary )?contact ?(\d)? ?(.*)$/.exec(words);
  if (!match) return null;
  const n = match[1] ? Number(match[1]) : 1;
  if (n < 1 || n > MAX_ROW_CONTACTS) return null;
  const rest = match[2] ?? '';
  const field = (Object.keys(CONTACT_SYNONYMS) as ContactField[]).find((f) =>
    CONTACT_SYNONYMS[f].includes(rest),
  );
  if (!field) return null;
  return `contact${n}.${field}` as LocationTarget;
}

/** The target a header names, or null when it names none with confidence. */
export function targetOfHeader(header: string): LocationTarget | null {
  const words = normaliseHeader(header);
  if (!words) return null;
  const contact = contactTarget(words);
  if (contact) return contact;
  for (const [target, synonyms] of Object.entries(BASE_SYNONYMS)) {
    if (synonyms.includes(words)) return target as LocationTarget;
  }
  // Bare contact headers ("First name", "Email") belong to the first contact.
  for (const field of CONTACT_FIELDS) {
    if (CONTACT_SYNONYMS[field].includes(words)) return `contact1.${field}` as LocationTarget;
  }
  return null;
}

/** Auto-matches headers to targets; each target takes the first header that names it. */
export function suggestLocationMapping(headers: readonly string[]): LocationMapping {
  const mapping: LocationMapping = {};
  headers.forEach((header, column) => {
    const target = targetOfHeader(header);
    if (target && mapping[target] === undefined) mapping[target] = column;
  });
  return mapping;
}

/**
 * Reads a saved mapping (the CLI's --mapping file): target → header name or 0-based column number.
 * Returns the mapping and plain problems for anything that cannot be used.
 */
export function readMappingFile(
  raw: unknown,
  headers: readonly string[],
): { mapping: LocationMapping; problems: string[] } {
  const problems: string[] = [];
  const mapping: LocationMapping = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { mapping, problems: ['The mapping file must be a JSON object of target → column header.'] };
  }
  for (const [target, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!isLocationTarget(target)) {
      problems.push(`“${target}” is not a location field.`);
      continue;
    }
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < headers.length) {
      mapping[target] = value;
    } else if (typeof value === 'string') {
      const column = headers.findIndex((h) => normaliseHeader(h) === normaliseHeader(value));
      if (column < 0) problems.push(`The file has no column “${value}” (for ${target}).`);
      else mapping[target] = column;
    } else if (value !== null) {
      problems.push(`The column for ${target} must be a header name or a column number.`);
    }
  }
  return { mapping, problems };
}

/** Problems with the mapping itself, before any row is read. */
export function mappingProblems(mapping: LocationMapping): string[] {
  const problems: string[] = [];
  if (mapping.referenceId === undefined) problems.push('Choose the column that holds the reference id.');
  const hasLat = mapping.latitude !== undefined;
  const hasLong = mapping.longitude !== undefined;
  if (hasLat !== hasLong) problems.push('Map both latitude and longitude, or neither.');
  const used = new Map<number, LocationTarget>();
  for (const [target, column] of Object.entries(mapping) as [LocationTarget, number][]) {
    const other = used.get(column);
    if (other) problems.push(`One column is mapped to both ${other} and ${target}.`);
    used.set(column, target);
  }
  return problems;
}
