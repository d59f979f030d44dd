import { MAX_ROW_CONTACTS, type LocationTarget } from './targets';

const ADDRESS_PARTS: Record<string, LocationTarget> = {
  addressLine: 'addressLine',
  country: 'country',
  district: 'district',
  locality: 'locality',
  postalCode: 'postalCode',
};
const CONTACT_PARTS: Record<string, string> = {
  firstName: 'firstName',
  lastName: 'lastName',
  emailAddress: 'email',
  isPrimary: 'primary',
};

/**
 * The sheet column target behind an attribute path the service complained about
 * (`address.country` → country, `contacts.1.emailAddress` → contact2.email), or null for the row.
 */
export function targetOfServiceField(field: string): LocationTarget | null {
  const parts = field.split('.');
  const [head, second, third] = parts;
  switch (head) {
    case 'name':
    case 'referenceId':
    case 'phoneNumber':
    case 'tags':
      return head;
    case 'address':
      if (second === 'geoCoordinate') return third === 'longitude' ? 'longitude' : 'latitude';
      return (second && ADDRESS_PARTS[second]) || 'addressLine';
    case 'contacts': {
      const index = Number(second);
      const part = third ? CONTACT_PARTS[third] : undefined;
      if (!Number.isInteger(index) || index < 0 || index >= MAX_ROW_CONTACTS) return null;
      return `contact${index + 1}.${part ?? 'email'}` as LocationTarget;
    }
    default:
      return null;
  }
}
