import type { Location } from '../../../../shared/contract/locationChannels';
import { isCountryCode } from '../../../../shared/donation';

/** The location's own fields as the detail form shows them, in order, with their labels. */
export const FIELDS = [
  ['name', 'Name'],
  ['referenceId', 'Reference id'],
  ['phoneNumber', 'Phone number'],
  ['addressLine', 'Street address'],
  ['locality', 'City'],
  ['district', 'District or state'],
  ['postalCode', 'Postal code'],
  ['country', 'Country code'],
  ['latitude', 'Latitude'],
  ['longitude', 'Longitude'],
] as const;
export type FieldName = (typeof FIELDS)[number][0];
export type LocationForm = Record<FieldName, string>;

export function fieldsOf(l: Location): LocationForm {
  const a = l.address ?? {};
  return {
    name: l.name ?? '',
    referenceId: l.referenceId ?? '',
    phoneNumber: l.phoneNumber ?? '',
    addressLine: a.addressLine ?? '',
    locality: a.locality ?? '',
    district: a.district ?? '',
    postalCode: a.postalCode ?? '',
    country: a.country ?? '',
    latitude: a.geoCoordinate ? String(a.geoCoordinate.latitude) : '',
    longitude: a.geoCoordinate ? String(a.geoCoordinate.longitude) : '',
  };
}

/** The fields the person has changed from the location as saved. */
export function changedFields(form: LocationForm, saved: Location): FieldName[] {
  const before = fieldsOf(saved);
  return FIELDS.filter(([k]) => form[k] !== before[k]).map(([k]) => k);
}

const coordinate = (text: string) => (text.trim() ? Number(text) : null);

/** What is wrong with each field, in words for under the field; no key where it is fine. */
export function fieldProblems(form: LocationForm): Partial<Record<FieldName, string>> {
  const lat = coordinate(form.latitude);
  const long = coordinate(form.longitude);
  const problems: Partial<Record<FieldName, string>> = {};
  if (!form.name.trim()) problems.name = 'A location needs a name.';
  if (!form.referenceId.trim()) problems.referenceId = 'A location needs a reference id.';
  if (form.country.trim() && !isCountryCode(form.country.trim().toUpperCase()))
    problems.country = 'Use a two-letter code such as US or DE.';
  if (lat !== null && !(lat >= -90 && lat <= 90)) problems.latitude = 'A number from -90 to 90.';
  if (long !== null && !(long >= -180 && long <= 180)) problems.longitude = 'A number from -180 to 180.';
  if ((lat === null) !== (long === null))
    problems[lat === null ? 'latitude' : 'longitude'] = 'Give both or neither.';
  return problems;
}

/** The PATCH for the changed fields only: trimmed, the country upper case, coordinates as a pair. */
export function locationChanges(form: LocationForm, changed: readonly FieldName[]) {
  const has = (k: FieldName) => changed.includes(k);
  const lat = coordinate(form.latitude);
  const long = coordinate(form.longitude);
  const address: Record<string, unknown> = {};
  for (const k of ['addressLine', 'locality', 'district', 'postalCode'] as const)
    if (has(k)) address[k] = form[k].trim();
  if (has('country')) address.country = form.country.trim().toUpperCase();
  if ((has('latitude') || has('longitude')) && lat !== null && long !== null)
    address.geoCoordinate = { latitude: lat, longitude: long };
  return {
    ...(has('name') ? { name: form.name.trim() } : {}),
    ...(has('referenceId') ? { referenceId: form.referenceId.trim() } : {}),
    ...(has('phoneNumber') ? { phoneNumber: form.phoneNumber.trim() } : {}),
    ...(Object.keys(address).length ? { address } : {}),
  };
}
