/** What each attribute is called in messages, in the words of a finance team. */
const LABELS: Readonly<Record<string, string>> = {
  destination: 'Destination',
  'destination.recipientId': 'Recipient ID',
  'destination.foundationId': 'Foundation ID',
  funds: 'Funds',
  'funds.paymentType': 'Payment type',
  'funds.currencyCode': 'Currency',
  'funds.amount': 'Amount',
  'funds.source': 'Funds source',
  donor: 'Donor',
  'donor.receipted': 'Receipt wanted',
  'donor.fullName': 'Donor name',
  'donor.email': 'Donor email',
  'donor.address': 'Donor address',
  'donor.address.line1': 'Address line 1',
  'donor.address.line2': 'Address line 2',
  'donor.address.city': 'City',
  'donor.address.state': 'State',
  'donor.address.zip': 'Zip/postal code',
  'donor.address.country': 'Country',
  metadata: 'Metadata',
};

/** Label for an attribute path; metadata pairs are named by their key. */
export function fieldLabel(field: string): string {
  if (field.startsWith('metadata.')) return `Metadata "${field.slice('metadata.'.length)}"`;
  return LABELS[field] ?? field;
}
