import { describe, expect, it } from 'vitest';
import type { Location } from '../../../../shared/contract/locationChannels';
import { changedFields, fieldProblems, fieldsOf, locationChanges } from './locationForm';

const saved: Location = {
  id: 'loc-1',
  name: 'Head office',
  referenceId: 'HQ',
  phoneNumber: null,
  address: { locality: 'Berlin', country: 'DE', geoCoordinate: { latitude: 52.5, longitude: 13.4 } },
};

describe('location form', () => {
  it('shows every field as text, empty where the service has nothing', () => {
    expect(fieldsOf(saved)).toEqual({
      name: 'Head office',
      referenceId: 'HQ',
      phoneNumber: '',
      addressLine: '',
      locality: 'Berlin',
      district: '',
      postalCode: '',
      country: 'DE',
      latitude: '52.5',
      longitude: '13.4',
    });
    expect(fieldsOf({ id: 'bare' }).latitude).toBe('');
  });

  it('lists only the fields that differ from the saved location', () => {
    const form = { ...fieldsOf(saved), phoneNumber: '+49 30 1', country: 'de' };
    expect(changedFields(form, saved)).toEqual(['phoneNumber', 'country']);
    expect(changedFields(fieldsOf(saved), saved)).toEqual([]);
  });

  it('says what is wrong with each field', () => {
    const form = {
      ...fieldsOf(saved),
      name: ' ',
      referenceId: '',
      country: 'Germany',
      latitude: '91',
      longitude: '',
    };
    expect(fieldProblems(form)).toEqual({
      name: 'A location needs a name.',
      referenceId: 'A location needs a reference id.',
      country: 'Use a two-letter code such as US or DE.',
      latitude: 'A number from -90 to 90.',
      longitude: 'Give both or neither.',
    });
    expect(fieldProblems({ ...fieldsOf(saved), longitude: '181' })).toEqual({
      longitude: 'A number from -180 to 180.',
    });
    expect(fieldProblems({ ...fieldsOf(saved), latitude: '' })).toEqual({
      latitude: 'Give both or neither.',
    });
    expect(fieldProblems(fieldsOf(saved))).toEqual({});
  });

  it('sends only the changed fields, trimmed, the country upper case and the coordinates as a pair', () => {
    const form = {
      ...fieldsOf(saved),
      name: ' Main office ',
      country: ' fr ',
      latitude: '48.8',
      longitude: '2.3',
    };
    expect(locationChanges(form, changedFields(form, saved))).toEqual({
      name: 'Main office',
      address: { country: 'FR', geoCoordinate: { latitude: 48.8, longitude: 2.3 } },
    });
    const street = { ...fieldsOf(saved), addressLine: ' 1 Main St ' };
    expect(locationChanges(street, ['addressLine'])).toEqual({ address: { addressLine: '1 Main St' } });
    expect(locationChanges(fieldsOf(saved), [])).toEqual({});
  });
});
