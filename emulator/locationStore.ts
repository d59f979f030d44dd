import { createHash } from 'node:crypto';

export interface GeoCoordinate {
  latitude: number;
  longitude: number;
}

export interface LocationAddress {
  addressLine: string;
  country: string;
  district?: string;
  locality?: string;
  postalCode?: string;
  geoCoordinate: GeoCoordinate;
}

export interface LocationRecord {
  id: string;
  name: string;
  referenceId: string;
  phoneNumber?: string;
  address: LocationAddress;
  tagIds: string[];
  contacts: Array<{ id: string; contactId: string; isPrimary: boolean }>;
}

export interface ContactRecord {
  id: string;
  firstName: string;
  lastName: string;
  emailAddress: string;
}

export interface TagRecord {
  id: string;
  name: string;
  value: string;
}

export interface LocationState {
  locations: Record<string, LocationRecord>;
  contacts: Record<string, ContactRecord>;
  tags: Record<string, TagRecord>;
}

export function emptyLocationState(): LocationState {
  return { locations: {}, contacts: {}, tags: {} };
}

const COUNTRY_CENTRES: Record<string, [number, number]> = {
  US: [39.5, -98.35],
  CA: [56.13, -106.35],
  GB: [54.0, -2.0],
  IE: [53.4, -8.0],
  DE: [51.17, 10.45],
  FR: [46.6, 1.89],
  NL: [52.13, 5.29],
  ES: [40.46, -3.75],
  IT: [41.87, 12.57],
  AU: [-25.27, 133.78],
  NZ: [-40.9, 174.89],
  JP: [36.2, 138.25],
  IN: [20.59, 78.96],
  SG: [1.35, 103.82],
  BR: [-14.24, -51.93],
  MX: [23.63, -102.55],
  ZA: [-30.56, 22.94],
  KE: [-0.02, 37.91],
};

/**
 * Stand-in for the map service: the same address always yields the same point, within about a
 * hundred kilometres of the country's centre (or anywhere for countries not in the table).
 */
export function geocode(address: Omit<LocationAddress, 'geoCoordinate'>): GeoCoordinate {
  const digest = createHash('sha256')
    .update(
      [address.addressLine, address.locality ?? '', address.postalCode ?? '', address.country]
        .join('|')
        .toLowerCase(),
    )
    .digest();
  const a = digest.readUInt32BE(0) / 0xffffffff;
  const b = digest.readUInt32BE(4) / 0xffffffff;
  const centre = COUNTRY_CENTRES[address.country];
  const round = (n: number): number => Math.round(n * 1e6) / 1e6;
  if (centre)
    return { latitude: round(centre[0] + (a - 0.5) * 2), longitude: round(centre[1] + (b - 0.5) * 2) };
  return { latitude: round((a - 0.5) * 120), longitude: round((b - 0.5) * 340) };
}

export function renderLocation(state: LocationState, location: LocationRecord): unknown {
  return {
    data: {
      type: 'location',
      attributes: {
        id: location.id,
        name: location.name,
        referenceId: location.referenceId,
        ...(location.phoneNumber !== undefined ? { phoneNumber: location.phoneNumber } : {}),
        address: location.address,
        tags: location.tagIds.flatMap((id) => {
          const tag = state.tags[id];
          return tag ? [{ _id: tag.id, name: tag.name, value: tag.value }] : [];
        }),
        contacts: location.contacts.flatMap((link) => {
          const contact = state.contacts[link.contactId];
          if (!contact) return [];
          return [
            {
              id: link.id,
              contactId: contact.id,
              locationId: location.id,
              isPrimary: link.isPrimary,
              firstName: contact.firstName,
              lastName: contact.lastName,
              emailAddress: contact.emailAddress,
            },
          ];
        }),
      },
    },
  };
}

export function renderContact(contact: ContactRecord): unknown {
  return {
    data: {
      type: 'contact',
      id: contact.id,
      attributes: {
        firstName: contact.firstName,
        lastName: contact.lastName,
        emailAddress: contact.emailAddress,
      },
    },
  };
}

export function renderTag(tag: TagRecord): unknown {
  return { data: { type: 'tag', id: tag.id, attributes: { _id: tag.id, name: tag.name, value: tag.value } } };
}
