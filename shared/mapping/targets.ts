import { METADATA_KEY } from '../donation';

/** Where a column can go. `metadata.<key>` is any valid metadata key. */
export const FIELD_TARGETS = [
  'recipientId',
  'foundationId',
  'amount',
  'currencyCode',
  'donor.fullName',
  'donor.firstName',
  'donor.lastName',
  'donor.email',
  'donor.receipted',
  'donor.address.line1',
  'donor.address.line2',
  'donor.address.city',
  'donor.address.state',
  'donor.address.zip',
  'donor.address.country',
] as const;

export type FieldTarget = (typeof FIELD_TARGETS)[number];
export type MetadataTarget = `metadata.${string}`;
export type MappingTarget = FieldTarget | MetadataTarget;

const FIELD_TARGET_SET: ReadonlySet<string> = new Set(FIELD_TARGETS);

export function isFieldTarget(text: string): text is FieldTarget {
  return FIELD_TARGET_SET.has(text);
}

/** The metadata key of a `metadata.<key>` target, or undefined for other targets. */
export function metadataKeyOf(target: string): string | undefined {
  return target.startsWith('metadata.') ? target.slice('metadata.'.length) : undefined;
}

/** True for a known field target or `metadata.<valid key>`. */
export function isMappingTarget(text: string): text is MappingTarget {
  const key = metadataKeyOf(text);
  return key !== undefined ? METADATA_KEY.test(key) : isFieldTarget(text);
}

/** The donation attribute path a target fills (first and last name both fill donor.fullName). */
export function targetField(target: MappingTarget): string {
  switch (target) {
    case 'recipientId':
      return 'destination.recipientId';
    case 'foundationId':
      return 'destination.foundationId';
    case 'amount':
      return 'funds.amount';
    case 'currencyCode':
      return 'funds.currencyCode';
    case 'donor.firstName':
    case 'donor.lastName':
      return 'donor.fullName';
    default:
      return target;
  }
}

/** Names for column pickers. */
export const TARGET_LABELS: Readonly<Record<FieldTarget, string>> = {
  recipientId: 'Recipient ID',
  foundationId: 'Foundation ID',
  amount: 'Amount',
  currencyCode: 'Currency',
  'donor.fullName': 'Donor full name',
  'donor.firstName': 'Donor first name',
  'donor.lastName': 'Donor last name',
  'donor.email': 'Donor email',
  'donor.receipted': 'Receipt wanted (yes/no)',
  'donor.address.line1': 'Address line 1',
  'donor.address.line2': 'Address line 2',
  'donor.address.city': 'City',
  'donor.address.state': 'State/province',
  'donor.address.zip': 'Zip/postal code',
  'donor.address.country': 'Country',
};

export function targetLabel(target: MappingTarget): string {
  const key = metadataKeyOf(target);
  return key !== undefined ? `Metadata "${key}"` : TARGET_LABELS[target as FieldTarget];
}
