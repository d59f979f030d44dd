import { isEmail, toCountryCode } from '../donation';
import type { BatchItem, LocationInput } from '../contract/locationChannels';
import type { LocationMapping } from './mapping';
import { MAX_ROW_CONTACTS, targetLabel, type LocationTarget } from './targets';

export interface LocationIssue {
  /** The target whose cell is wrong; the renderer finds its column through the mapping. */
  target: LocationTarget | null;
  message: string;
}

export interface LocationRowResult {
  rowNumber: number;
  /** What would be sent, or null when the row has errors (or is blank). */
  item: BatchItem | null;
  issues: LocationIssue[];
}

export interface SourceRow {
  rowNumber: number;
  cells: readonly string[];
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', '1', 'x', 'primary', 'ja', 'oui', 'si']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0', '']);

/** Decimal degrees; a lone comma is read as the decimal mark ("48,85"). */
export function parseDegrees(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(t)) return null;
  return Number(t.replace(',', '.'));
}

/** `Region=West; Tier=Gold` (also `:` for `=`, new lines for `;`) → [{name, value}]. */
export function parseTags(text: string): { tags: { name: string; value: string }[]; problem: string | null } {
  const tags: { name: string; value: string }[] = [];
  for (const part of text.split(/[;\n]/)) {
    const item = part.trim();
    if (!item) continue;
    const at = item.search(/[=:]/);
    const name = at < 0 ? '' : item.slice(0, at).trim();
    const value = at < 0 ? '' : item.slice(at + 1).trim();
    if (!name || !value) {
      return {
        tags,
        problem: `Tag “${item}” needs a name and a value, written as Name=Value (e.g. Region=West; Tier=Gold).`,
      };
    }
    tags.push({ name, value });
  }
  return { tags, problem: null };
}

function readAction(text: string): 'save' | 'remove' | null {
  const t = text.trim().toLowerCase();
  if (['', 'save', 'add', 'update', 'upsert', 'create'].includes(t)) return 'save';
  if (['remove', 'delete', 'del'].includes(t)) return 'remove';
  return null;
}

/**
 * Turns one row into a batch item, checking what can be checked without the service: required
 * fields, the country code, email syntax, coordinates in range, tags, one primary contact.
 */
export function validateLocationRow(
  cells: readonly string[],
  mapping: LocationMapping,
): Omit<LocationRowResult, 'rowNumber'> {
  const issues: LocationIssue[] = [];
  const cell = (target: LocationTarget): string => {
    const column = mapping[target];
    return column === undefined ? '' : (cells[column] ?? '').trim();
  };
  const fail = (target: LocationTarget | null, message: string) => issues.push({ target, message });

  const action = readAction(cell('action'));
  if (!action) fail('action', `Action “${cell('action')}” is not save or remove.`);
  const referenceId = cell('referenceId');
  if (!referenceId) fail('referenceId', 'Reference id is empty: every location needs one.');
  if (action === 'remove') {
    return { item: issues.length ? null : { action: 'remove', referenceId }, issues };
  }

  const required: LocationTarget[] = ['name', 'addressLine', 'country'];
  for (const target of required) {
    if (!cell(target)) fail(target, `${targetLabel(target)} is empty.`);
  }
  const countryText = cell('country');
  const country = countryText ? toCountryCode(countryText) : undefined;
  if (countryText && !country) {
    fail(
      'country',
      `Country “${countryText}” is not a known country; use a two-letter code such as US or DE.`,
    );
  }

  const latText = cell('latitude');
  const longText = cell('longitude');
  let geoCoordinate: { latitude: number; longitude: number } | undefined;
  if (latText || longText) {
    const latitude = parseDegrees(latText);
    const longitude = parseDegrees(longText);
    if (!latText) fail('latitude', 'Latitude is empty while longitude is given: give both or neither.');
    else if (latitude === null || latitude < -90 || latitude > 90)
      fail('latitude', `Latitude “${latText}” must be a number from -90 to 90.`);
    if (!longText) fail('longitude', 'Longitude is empty while latitude is given: give both or neither.');
    else if (longitude === null || longitude < -180 || longitude > 180)
      fail('longitude', `Longitude “${longText}” must be a number from -180 to 180.`);
    if (
      latitude !== null &&
      longitude !== null &&
      issues.every((i) => i.target !== 'latitude' && i.target !== 'longitude')
    ) {
      geoCoordinate = { latitude, longitude };
    }
  }

  const { tags, problem } = parseTags(cell('tags'));
  if (problem) fail('tags', problem);

  const contacts: NonNullable<LocationInput['contacts']> = [];
  let primarySeen: number | null = null;
  for (let n = 1; n <= MAX_ROW_CONTACTS; n++) {
    const t = (field: string) => `contact${n}.${field}` as LocationTarget;
    const firstName = cell(t('firstName'));
    const lastName = cell(t('lastName'));
    const email = cell(t('email'));
    const primaryText = cell(t('primary'));
    if (!firstName && !lastName && !email) {
      if (primaryText && TRUE_WORDS.has(primaryText.toLowerCase()))
        fail(t('primary'), `Contact ${n} is marked primary but has no name or email.`);
      continue;
    }
    if (!firstName) fail(t('firstName'), `Contact ${n} has no first name.`);
    if (!lastName) fail(t('lastName'), `Contact ${n} has no last name.`);
    if (!email) fail(t('email'), `Contact ${n} has no email address.`);
    else if (!isEmail(email))
      fail(t('email'), `Contact ${n} email “${email}” is not a valid address (name@example.com).`);
    const primaryWord = primaryText.toLowerCase();
    let isPrimary = false;
    if (TRUE_WORDS.has(primaryWord)) isPrimary = true;
    else if (!FALSE_WORDS.has(primaryWord)) fail(t('primary'), `Primary “${primaryText}” must be yes or no.`);
    if (isPrimary) {
      if (primarySeen !== null) {
        fail(t('primary'), `Contact ${primarySeen} is already the primary contact: a location has only one.`);
      } else primarySeen = n;
    }
    contacts.push({ firstName, lastName, emailAddress: email, isPrimary });
  }

  if (issues.length) return { item: null, issues };
  const address: NonNullable<LocationInput['address']> = {
    addressLine: cell('addressLine'),
    country: country!,
  };
  for (const part of ['locality', 'district', 'postalCode'] as const) {
    if (cell(part)) address[part] = cell(part);
  }
  if (geoCoordinate) address.geoCoordinate = geoCoordinate;
  const location: LocationInput = { name: cell('name'), referenceId, address };
  if (cell('phoneNumber')) location.phoneNumber = cell('phoneNumber');
  // Lists are sent only when the row has some: on an update, a given list replaces the location's own.
  if (tags.length) location.tags = tags;
  if (contacts.length) location.contacts = contacts;
  return { item: { action: 'save', location }, issues };
}

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

/** Every row, plus the checks across rows: a referenceId appears once in the file. Blank rows are skipped. */
export function validateLocationRows(
  rows: readonly SourceRow[],
  mapping: LocationMapping,
): LocationRowResult[] {
  const results: LocationRowResult[] = [];
  const firstRowOf = new Map<string, number>();
  const column = mapping.referenceId;
  for (const row of rows) {
    if (isBlank(row.cells)) continue;
    const result: LocationRowResult = {
      rowNumber: row.rowNumber,
      ...validateLocationRow(row.cells, mapping),
    };
    const ref = column === undefined ? '' : (row.cells[column] ?? '').trim();
    if (ref) {
      const first = firstRowOf.get(ref.toLowerCase());
      if (first !== undefined) {
        result.issues.push({
          target: 'referenceId',
          message: `Reference id “${ref}” is also on row ${first}: each location appears once in the file.`,
        });
        result.item = null;
      } else firstRowOf.set(ref.toLowerCase(), row.rowNumber);
    }
    results.push(result);
  }
  return results;
}
