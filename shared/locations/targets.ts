/** How many contacts one spreadsheet row can carry (Contact 1 … Contact 3 column groups). */
export const MAX_ROW_CONTACTS = 3;

export const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'primary'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

const BASE_TARGETS = [
  'action',
  'name',
  'referenceId',
  'phoneNumber',
  'addressLine',
  'locality',
  'district',
  'postalCode',
  'country',
  'latitude',
  'longitude',
  'tags',
] as const;
type BaseTarget = (typeof BASE_TARGETS)[number];
export type ContactTarget = `contact${1 | 2 | 3}.${ContactField}`;
export type LocationTarget = BaseTarget | ContactTarget;

export const LOCATION_TARGETS: readonly LocationTarget[] = [
  ...BASE_TARGETS,
  ...[1, 2, 3].flatMap((n) => CONTACT_FIELDS.map((f) => `contact${n}.${f}` as ContactTarget)),
];

const BASE_LABELS: Record<BaseTarget, string> = {
  action: 'Action (save or remove)',
  name: 'Name',
  referenceId: 'Reference id',
  phoneNumber: 'Phone number',
  addressLine: 'Street address',
  locality: 'City',
  district: 'District or state',
  postalCode: 'Postal code',
  country: 'Country',
  latitude: 'Latitude',
  longitude: 'Longitude',
  tags: 'Tags (Name=Value; …)',
};
const CONTACT_LABELS: Record<ContactField, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'email',
  primary: 'primary',
};

export function targetLabel(target: LocationTarget): string {
  const contact = /^contact(\d)\.(\w+)$/.exec(target);
  if (contact) return `Contact ${contact[1]} ${CONTACT_LABELS[contact[2] as ContactField]}`;
  return BASE_LABELS[target as BaseTarget];
}

export function isLocationTarget(value: unknown): value is LocationTarget {
  return typeof value === 'string' && (LOCATION_TARGETS as readonly string[]).includes(value);
}

/** Header words, normalised, that name each base target. */
export const BASE_SYNONYMS: Record<BaseTarget, string[]> = {
  action: ['action', 'operation', 'op', 'change'],
  name: ['name', 'location', 'location name', 'store', 'store name', 'site', 'site name', 'office', 'branch'],
  referenceId: [
    'reference id',
    'referenceid',
    'reference',
    'ref',
    'ref id',
    'external id',
    'location id',
    'store id',
    'site id',
    'store number',
    'code',
    // "<place> no / nr / num / number / id / code / ref", as finance sheets write them ("Store no").
    ...['store', 'site', 'location', 'branch', 'office', 'shop', 'reference', 'ref'].flatMap((place) =>
      ['no', 'nr', 'num', 'number', 'id', 'code', 'ref'].map((word) => `${place} ${word}`),
    ),
  ],
  phoneNumber: ['phone', 'phone number', 'telephone', 'tel', 'phonenumber'],
  addressLine: [
    'address',
    'address line',
    'addressline',
    'street',
    'street address',
    'address 1',
    'address line 1',
  ],
  locality: ['city', 'town', 'locality'],
  district: ['district', 'state', 'province', 'region', 'county', 'state province'],
  postalCode: ['postal code', 'postcode', 'zip', 'zip code', 'postalcode', 'zipcode'],
  country: ['country', 'country code', 'countrycode', 'nation'],
  latitude: ['latitude', 'lat'],
  longitude: ['longitude', 'long', 'lng', 'lon'],
  tags: ['tags', 'tag', 'labels', 'attributes'],
};

export const CONTACT_SYNONYMS: Record<ContactField, string[]> = {
  firstName: ['first name', 'firstname', 'given name', 'first'],
  lastName: ['last name', 'lastname', 'surname', 'family name', 'last'],
  email: ['email', 'e mail', 'email address', 'emailaddress', 'mail'],
  primary: ['primary', 'is primary', 'isprimary', 'main', 'primary contact'],
};
