import { describe, expect, it } from 'vitest';
import type { Location } from '../../../../../shared/contract/locationChannels';
import { fullName, unassignedContacts, unassignedTags, withSavedContact, withSavedTag } from './assigned';

const location: Location = {
  id: 'loc-1',
  contacts: [
    {
      id: 'lc-1',
      contactId: 'c-1',
      isPrimary: true,
      firstName: 'Ann',
      lastName: 'Ng',
      emailAddress: 'ann@x.org',
    },
    {
      id: 'lc-2',
      contactId: 'c-2',
      isPrimary: false,
      firstName: 'Bo',
      lastName: null,
      emailAddress: 'bo@x.org',
    },
  ],
  tags: [{ _id: 't-1', name: 'Tier', value: 'Gold' }],
};

describe('assigned contacts and tags', () => {
  it('names a contact by first and last name, either may be missing', () => {
    expect(fullName({ firstName: 'Ann', lastName: 'Ng' })).toBe('Ann Ng');
    expect(fullName({ firstName: 'Bo', lastName: null })).toBe('Bo');
    expect(fullName({ lastName: 'Ek' })).toBe('Ek');
  });

  it('offers only the known contacts and tags the location does not have', () => {
    const known = [
      { id: 'c-1', firstName: 'Ann', lastName: 'Ng', emailAddress: 'ann@x.org' },
      { id: 'c-3', firstName: 'Cy', lastName: 'Op', emailAddress: 'cy@x.org' },
    ];
    expect(unassignedContacts(location, known).map((c) => c.id)).toEqual(['c-3']);
    expect(unassignedContacts({ id: 'bare' }, known)).toHaveLength(2);
    const tags = [
      { id: 't-1', name: 'Tier', value: 'Gold' },
      { id: 't-2', name: 'Region', value: 'North' },
    ];
    expect(unassignedTags(location, tags).map((t) => t.id)).toEqual(['t-2']);
  });

  it('puts a saved contact on its assignment and leaves the others', () => {
    const saved = { id: 'c-2', firstName: 'Bo', lastName: 'Ek', emailAddress: 'bo.ek@x.org' };
    const next = withSavedContact(location, saved);
    expect(next.contacts?.[1]).toEqual({
      id: 'lc-2',
      contactId: 'c-2',
      isPrimary: false,
      firstName: 'Bo',
      lastName: 'Ek',
      emailAddress: 'bo.ek@x.org',
    });
    expect(next.contacts?.[0]).toBe(location.contacts?.[0]);
    expect(next.tags).toBe(location.tags);
  });

  it('puts a saved tag on the location', () => {
    const next = withSavedTag(location, { id: 't-1', name: 'Tier', value: 'Platinum' });
    expect(next.tags).toEqual([{ _id: 't-1', name: 'Tier', value: 'Platinum' }]);
    expect(withSavedTag({ id: 'bare' }, { id: 't-1', name: 'a', value: 'b' }).tags).toEqual([]);
  });
});
