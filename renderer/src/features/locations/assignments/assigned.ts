import type { Contact, Location, Tag } from '../../../../../shared/contract/locationChannels';

type AssignedContact = NonNullable<Location['contacts']>[number];

export const fullName = (c: { firstName?: string | null; lastName?: string | null }) =>
  `${c.firstName ?? ''} ${c.lastName ?? ''}`.trim();

/** Known contacts not yet assigned to the location. */
export function unassignedContacts(location: Location, contacts: readonly Contact[]): Contact[] {
  const assigned = location.contacts ?? [];
  return contacts.filter((c) => !assigned.some((a) => a.contactId === c.id));
}

/** Known tags not yet on the location. */
export function unassignedTags(location: Location, tags: readonly Tag[]): Tag[] {
  const assigned = location.tags ?? [];
  return tags.filter((t) => !assigned.some((a) => a._id === t.id));
}

/** The location with a contact's saved name and email on its assignment. */
export function withSavedContact(location: Location, saved: Contact): Location {
  return {
    ...location,
    contacts: (location.contacts ?? []).map((x): AssignedContact =>
      x.contactId === saved.id
        ? { ...x, firstName: saved.firstName, lastName: saved.lastName, emailAddress: saved.emailAddress }
        : x,
    ),
  };
}

/** The location with a tag's saved name and value (a tag is shared: every location shows the change). */
export function withSavedTag(location: Location, saved: Tag): Location {
  return {
    ...location,
    tags: (location.tags ?? []).map((x) =>
      x._id === saved.id ? { ...x, name: saved.name, value: saved.value } : x,
    ),
  };
}
