import { describe, expect, it } from 'vitest';
import {
  mappingProblems,
  parseDegrees,
  parseTags,
  readMappingFile,
  suggestLocationMapping,
  targetOfHeader,
  targetOfServiceField,
  validateLocationRow,
  validateLocationRows,
  type LocationMapping,
  type LocationTarget,
} from '.';

describe('targetOfHeader', () => {
  it.each<[string, LocationTarget | null]>([
    ['Name', 'name'],
    ['Store name', 'name'],
    ['Reference ID', 'referenceId'],
    ['referenceId', 'referenceId'],
    ['Ref', 'referenceId'],
    ['Store no', 'referenceId'],
    ['Store No.', 'referenceId'],
    ['Site nr', 'referenceId'],
    ['Branch code', 'referenceId'],
    ['Location number', 'referenceId'],
    ['Phone', 'phoneNumber'],
    ['Street Address', 'addressLine'],
    ['City', 'locality'],
    ['State/Province', 'district'],
    ['ZIP', 'postalCode'],
    ['Postal code', 'postalCode'],
    ['Country code', 'country'],
    ['Lat', 'latitude'],
    ['Lng', 'longitude'],
    ['Tags', 'tags'],
    ['Action', 'action'],
    ['Contact first name', 'contact1.firstName'],
    ['Contact 2 Last Name', 'contact2.lastName'],
    ['Contact3 E-mail', 'contact3.email'],
    ['Primary contact email', 'contact1.email'],
    ['Contact 1 primary', 'contact1.primary'],
    ['Email', 'contact1.email'],
    ['Surname', 'contact1.lastName'],
    ['Contact 4 email', null],
    ['Notes', null],
    ['', null],
  ])('%s → %s', (header, target) => {
    expect(targetOfHeader(header)).toBe(target);
  });

  it('matches the README’s own example headers: Store, Store no, Country', () => {
    expect(suggestLocationMapping(['Store', 'Store no', 'Country', 'Contact 1 email'])).toEqual({
      name: 0,
      referenceId: 1,
      country: 2,
      'contact1.email': 3,
    });
  });

  it('maps each target once, to the first header that names it', () => {
    expect(suggestLocationMapping(['Name', 'Site name', 'Ref', 'Country'])).toEqual({
      name: 0,
      referenceId: 2,
      country: 3,
    });
  });
});

describe('mapping files and problems', () => {
  const headers = ['Store', 'Ref', 'Country', 'Lat'];
  it('reads header names and column numbers, and names what cannot be used', () => {
    const { mapping, problems } = readMappingFile(
      { name: 'store', referenceId: 1, country: 'Nation', colour: 'Store', latitude: true },
      headers,
    );
    expect(mapping).toEqual({ name: 0, referenceId: 1 });
    expect(problems).toHaveLength(3);
    expect(readMappingFile([], headers).problems).toHaveLength(1);
  });
  it.each<[LocationMapping, RegExp | null]>([
    [{ referenceId: 0 }, null],
    [{ name: 0 }, /reference id/],
    [{ referenceId: 0, latitude: 1 }, /latitude and longitude/],
    [{ referenceId: 0, name: 0 }, /both/],
  ])('%j', (mapping, problem) => {
    const problems = mappingProblems(mapping);
    if (problem) expect(problems.join(' ')).toMatch(problem);
    else expect(problems).toEqual([]);
  });
});

describe('parsers', () => {
  it.each<[string, number | null]>([
    ['48.85', 48.85],
    ['-33.8688', -33.8688],
    ['48,85', 48.85],
    ['+2', 2],
    ['.5', 0.5],
    ['north', null],
    ['1.2.3', null],
    ['', null],
  ])('degrees %s → %s', (text, value) => {
    expect(parseDegrees(text)).toBe(value);
  });

  it.each<[string, { name: string; value: string }[], boolean]>([
    [
      'Region=West; Tier=Gold',
      [
        { name: 'Region', value: 'West' },
        { name: 'Tier', value: 'Gold' },
      ],
      false,
    ],
    [
      'Region: West\nTier: Gold;',
      [
        { name: 'Region', value: 'West' },
        { name: 'Tier', value: 'Gold' },
      ],
      false,
    ],
    ['', [], false],
    ['Region=West; Gold', [{ name: 'Region', value: 'West' }], true],
    ['=West', [], true],
    ['Region=', [], true],
  ])('tags %j', (text, tags, problem) => {
    const parsed = parseTags(text);
    expect(parsed.tags).toEqual(tags);
    expect(parsed.problem !== null).toBe(problem);
  });
});

const HEADERS = [
  'Action',
  'Name',
  'Reference ID',
  'Phone',
  'Address',
  'City',
  'State',
  'ZIP',
  'Country',
  'Latitude',
  'Longitude',
  'Tags',
  'Contact 1 first name',
  'Contact 1 last name',
  'Contact 1 email',
  'Contact 1 primary',
  'Contact 2 first name',
  'Contact 2 last name',
  'Contact 2 email',
  'Contact 2 primary',
];
const mapping = suggestLocationMapping(HEADERS);

function row(values: Partial<Record<string, string>>): string[] {
  const base: Record<string, string> = {
    Name: 'Denver store',
    'Reference ID': 'DEN-1',
    Address: '1 Main St',
    Country: 'US',
  };
  const all = { ...base, ...values };
  return HEADERS.map((h) => all[h] ?? '');
}

describe('validateLocationRow', () => {
  it('maps every header of the full sheet', () => {
    expect(Object.keys(mapping)).toHaveLength(HEADERS.length);
  });

  it('builds the service attributes of a complete row', () => {
    const result = validateLocationRow(
      row({
        Phone: '+1 303 555 0100',
        City: 'Denver',
        State: 'CO',
        ZIP: '80202',
        Country: 'united states',
        Latitude: '39.7392',
        Longitude: '-104.9903',
        Tags: 'Region=West; Tier=Gold',
        'Contact 1 first name': 'Ann',
        'Contact 1 last name': 'Ng',
        'Contact 1 email': 'ann@example.com',
        'Contact 1 primary': 'yes',
        'Contact 2 first name': 'Bo',
        'Contact 2 last name': 'Ek',
        'Contact 2 email': 'bo@example.com',
      }),
      mapping,
    );
    expect(result.issues).toEqual([]);
    expect(result.item).toEqual({
      action: 'save',
      location: {
        name: 'Denver store',
        referenceId: 'DEN-1',
        phoneNumber: '+1 303 555 0100',
        address: {
          addressLine: '1 Main St',
          country: 'US',
          locality: 'Denver',
          district: 'CO',
          postalCode: '80202',
          geoCoordinate: { latitude: 39.7392, longitude: -104.9903 },
        },
        tags: [
          { name: 'Region', value: 'West' },
          { name: 'Tier', value: 'Gold' },
        ],
        contacts: [
          { firstName: 'Ann', lastName: 'Ng', emailAddress: 'ann@example.com', isPrimary: true },
          { firstName: 'Bo', lastName: 'Ek', emailAddress: 'bo@example.com', isPrimary: false },
        ],
      },
    });
  });

  it('leaves out lists the row does not have (an update keeps the location’s own)', () => {
    const result = validateLocationRow(row({}), mapping);
    expect(result.item).toEqual({
      action: 'save',
      location: {
        name: 'Denver store',
        referenceId: 'DEN-1',
        address: { addressLine: '1 Main St', country: 'US' },
      },
    });
  });

  it('reads remove rows with only a reference id', () => {
    expect(
      validateLocationRow(row({ Action: 'Delete', Name: '', Address: '', Country: '' }), mapping).item,
    ).toEqual({
      action: 'remove',
      referenceId: 'DEN-1',
    });
  });

  it.each<[string, Partial<Record<string, string>>, LocationTarget[]]>([
    ['unknown action', { Action: 'archive' }, ['action']],
    ['no reference id', { 'Reference ID': '' }, ['referenceId']],
    ['no name', { Name: '' }, ['name']],
    ['no street', { Address: '' }, ['addressLine']],
    ['unknown country', { Country: 'Atlantis' }, ['country']],
    ['three-letter nonsense', { Country: 'QQQ' }, ['country']],
    ['latitude out of range', { Latitude: '91', Longitude: '10' }, ['latitude']],
    ['longitude out of range', { Latitude: '10', Longitude: '-181' }, ['longitude']],
    ['latitude not a number', { Latitude: 'north', Longitude: '10' }, ['latitude']],
    ['only latitude', { Latitude: '10' }, ['longitude']],
    ['bad tag', { Tags: 'Region' }, ['tags']],
    [
      'bad email',
      { 'Contact 1 first name': 'A', 'Contact 1 last name': 'B', 'Contact 1 email': 'a@b' },
      ['contact1.email'],
    ],
    [
      'missing contact names',
      { 'Contact 1 email': 'a@example.com' },
      ['contact1.firstName', 'contact1.lastName'],
    ],
    [
      'two primaries',
      {
        'Contact 1 first name': 'A',
        'Contact 1 last name': 'B',
        'Contact 1 email': 'a@example.com',
        'Contact 1 primary': 'yes',
        'Contact 2 first name': 'C',
        'Contact 2 last name': 'D',
        'Contact 2 email': 'c@example.com',
        'Contact 2 primary': 'TRUE',
      },
      ['contact2.primary'],
    ],
    [
      'unreadable primary',
      {
        'Contact 1 first name': 'A',
        'Contact 1 last name': 'B',
        'Contact 1 email': 'a@example.com',
        'Contact 1 primary': 'maybe',
      },
      ['contact1.primary'],
    ],
    ['primary without a contact', { 'Contact 2 primary': 'yes' }, ['contact2.primary']],
  ])('%s', (_name, values, targets) => {
    const result = validateLocationRow(row(values), mapping);
    expect(result.item).toBeNull();
    expect(result.issues.map((i) => i.target)).toEqual(targets);
    for (const issue of result.issues) expect(issue.message.length).toBeGreaterThan(10);
  });
});

describe('validateLocationRows', () => {
  it('requires each reference id once in the file (case-insensitively) and skips blank rows', () => {
    const results = validateLocationRows(
      [
        { rowNumber: 2, cells: row({}) },
        { rowNumber: 3, cells: HEADERS.map(() => ' ') },
        { rowNumber: 4, cells: row({ 'Reference ID': 'den-1' }) },
        { rowNumber: 5, cells: row({ 'Reference ID': 'DEN-2' }) },
      ],
      mapping,
    );
    expect(results.map((r) => r.rowNumber)).toEqual([2, 4, 5]);
    expect(results[0]!.item).not.toBeNull();
    expect(results[1]!.item).toBeNull();
    expect(results[1]!.issues[0]).toMatchObject({
      target: 'referenceId',
      message: expect.stringContaining('row 2'),
    });
    expect(results[2]!.item).not.toBeNull();
  });
});

describe('targetOfServiceField', () => {
  it.each<[string, LocationTarget | null]>([
    ['name', 'name'],
    ['referenceId', 'referenceId'],
    ['address.country', 'country'],
    ['address', 'addressLine'],
    ['address.geoCoordinate.latitude', 'latitude'],
    ['address.geoCoordinate.longitude', 'longitude'],
    ['address.geoCoordinate', 'latitude'],
    ['tags.0.name', 'tags'],
    ['contacts.0.emailAddress', 'contact1.email'],
    ['contacts.1.isPrimary', 'contact2.primary'],
    ['contacts.2', 'contact3.email'],
    ['contacts.7.firstName', null],
    ['', null],
    ['colour', null],
  ])('%j → %s', (field, target) => {
    expect(targetOfServiceField(field)).toBe(target);
  });
});
