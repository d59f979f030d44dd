/** One finding about a donation. `field` is the donation attribute path, e.g. `funds.amount`,
 * `donor.address.country`, `metadata.<key>`, or `metadata` for the pair count; '' is the whole row. */
export interface DonationIssue {
  severity: 'error' | 'warning';
  field: string;
  code: string;
  message: string;
}

/** Attribute paths the app maps cells to; `metadata.<key>` is added per key. */
export type DonationField =
  | 'destination.recipientId'
  | 'destination.foundationId'
  | 'funds.paymentType'
  | 'funds.currencyCode'
  | 'funds.amount'
  | 'funds.source'
  | 'donor'
  | 'donor.receipted'
  | 'donor.fullName'
  | 'donor.email'
  | 'donor.address'
  | 'donor.address.line1'
  | 'donor.address.line2'
  | 'donor.address.city'
  | 'donor.address.state'
  | 'donor.address.zip'
  | 'donor.address.country'
  | 'metadata';

export const PAYMENT_TYPE = 'DONATION_REPORT';
export const FUNDS_SOURCE = 'COMPANY';
