import { isCurrencyCode } from '../amounts';
import { isCountryCode } from './countries';
import { emailProblem, isEmail } from './email';
import { fieldLabel } from './fieldLabels';
import { METADATA_MAX_PAIRS, metadataKeyProblem, metadataValueProblem } from './metadataRules';
import { checkRecipientId, isFoundationId } from './recipientId';
import { FUNDS_SOURCE, PAYMENT_TYPE, type DonationIssue } from './types';

/*
 * The hand-written check of a donation's create attributes (the renderer's grid re-validates 100k
 * rows with it; zod without eval is ~6× slower). It accepts `unknown` and checks shape as well, so
 * it can be compared case by case with the zod schema in schema.ts, which must agree on errors.
 */

type Issues = DonationIssue[];
type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Blank = empty or only whitespace; checks the first character before paying for trim(). */
function isBlank(s: string): boolean {
  if (s.length === 0) return true;
  const c = s.charCodeAt(0);
  if (c > 32 && c !== 160 && c < 0x1680) return false;
  return s.trim() === '';
}

function error(issues: Issues, field: string, code: string, message: string): void {
  issues.push({ severity: 'error', field, code, message });
}

function unknownKey(issues: Issues, path: string, key: string): void {
  const field = path === '' ? key : `${path}.${key}`;
  error(
    issues,
    field,
    'FIELD_UNKNOWN',
    `"${field}" is not a donation attribute the service accepts. Remove it.`,
  );
}

function required(issues: Issues, field: string, code: string, hint: string): void {
  error(issues, field, code, `${fieldLabel(field)} is missing. ${hint}`);
}

/** Optional text: absent is fine; present must be a non-blank string. Returns the string if usable. */
function optionalText(issues: Issues, obj: Obj, key: string, field: string): string | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') {
    error(issues, field, 'FIELD_NOT_TEXT', `${fieldLabel(field)} must be text.`);
    return undefined;
  }
  if (isBlank(v)) {
    error(
      issues,
      field,
      'FIELD_EMPTY',
      `${fieldLabel(field)} is blank. Fill it in or leave the attribute out.`,
    );
    return undefined;
  }
  return v;
}

function checkDestination(issues: Issues, value: unknown): void {
  if (value === undefined) {
    required(
      issues,
      'destination.recipientId',
      'RECIPIENT_REQUIRED',
      'Enter the cause, project or portfolio id.',
    );
    return;
  }
  if (!isObject(value)) {
    error(issues, 'destination', 'FIELD_NOT_OBJECT', 'Destination must be an object with recipientId.');
    return;
  }
  for (const key in value)
    if (key !== 'recipientId' && key !== 'foundationId') unknownKey(issues, 'destination', key);
  const recipient = value.recipientId;
  if (recipient === undefined || (typeof recipient === 'string' && isBlank(recipient))) {
    required(
      issues,
      'destination.recipientId',
      'RECIPIENT_REQUIRED',
      'Enter the cause, project or portfolio id.',
    );
  } else if (typeof recipient !== 'string') {
    error(issues, 'destination.recipientId', 'FIELD_NOT_TEXT', 'Recipient ID must be text.');
  } else {
    const problem = checkRecipientId(recipient);
    if (problem) issues.push({ field: 'destination.recipientId', ...problem });
  }
  const foundation = optionalText(issues, value, 'foundationId', 'destination.foundationId');
  if (foundation !== undefined && !isFoundationId(foundation)) {
    error(
      issues,
      'destination.foundationId',
      'FOUNDATION_INVALID',
      `Foundation ID "${foundation}" is not an id: use letters, digits and - _ . : / only, no spaces.`,
    );
  }
}

function checkFunds(issues: Issues, value: unknown): void {
  if (!isObject(value)) {
    if (value === undefined) {
      required(issues, 'funds.amount', 'AMOUNT_REQUIRED', 'Enter the donation amount.');
      required(
        issues,
        'funds.currencyCode',
        'CURRENCY_REQUIRED',
        'Enter a three-letter currency code such as USD.',
      );
      required(issues, 'funds.paymentType', 'PAYMENT_TYPE_REQUIRED', `It must be ${PAYMENT_TYPE}.`);
    } else
      error(issues, 'funds', 'FIELD_NOT_OBJECT', 'Funds must be an object with amount and currencyCode.');
    return;
  }
  for (const key in value) {
    if (key !== 'paymentType' && key !== 'currencyCode' && key !== 'amount' && key !== 'source')
      unknownKey(issues, 'funds', key);
  }
  const amount = value.amount;
  if (amount === undefined) required(issues, 'funds.amount', 'AMOUNT_REQUIRED', 'Enter the donation amount.');
  else if (typeof amount !== 'number' || !Number.isInteger(amount)) {
    error(
      issues,
      'funds.amount',
      'AMOUNT_NOT_INTEGER',
      'Amount must be a whole number of minor units (cents).',
    );
  } else if (amount <= 0) {
    error(
      issues,
      'funds.amount',
      amount === 0 ? 'AMOUNT_ZERO' : 'AMOUNT_NEGATIVE',
      'Amount must be more than zero.',
    );
  } else if (amount > Number.MAX_SAFE_INTEGER) {
    error(
      issues,
      'funds.amount',
      'AMOUNT_TOO_LARGE',
      'Amount is too large to be a donation. Check the cell.',
    );
  }

  const currency = value.currencyCode;
  if (currency === undefined || currency === '') {
    required(
      issues,
      'funds.currencyCode',
      'CURRENCY_REQUIRED',
      'Enter a three-letter currency code such as USD.',
    );
  } else if (typeof currency !== 'string') {
    error(
      issues,
      'funds.currencyCode',
      'FIELD_NOT_TEXT',
      'Currency must be a three-letter code such as USD.',
    );
  } else if (!isCurrencyCode(currency)) {
    const upper = currency.trim().toUpperCase();
    error(
      issues,
      'funds.currencyCode',
      'CURRENCY_UNKNOWN',
      isCurrencyCode(upper)
        ? `Currency "${currency}" must be written as ${upper}.`
        : `Currency "${currency}" is not an ISO 4217 currency code. Enter a code such as USD, EUR or JPY.`,
    );
  }

  const paymentType = value.paymentType;
  if (paymentType === undefined)
    required(issues, 'funds.paymentType', 'PAYMENT_TYPE_REQUIRED', `It must be ${PAYMENT_TYPE}.`);
  else if (paymentType !== PAYMENT_TYPE) {
    error(
      issues,
      'funds.paymentType',
      'PAYMENT_TYPE_INVALID',
      `Payment type must be ${PAYMENT_TYPE} for company donations.`,
    );
  }
  if (value.source !== undefined && value.source !== FUNDS_SOURCE) {
    error(
      issues,
      'funds.source',
      'SOURCE_INVALID',
      `Funds source must be ${FUNDS_SOURCE} for company donations.`,
    );
  }
}

const ADDRESS_KEYS = ['line1', 'line2', 'city', 'state', 'zip', 'country'] as const;

function checkDonor(issues: Issues, value: unknown): void {
  if (value === undefined) return;
  if (!isObject(value)) {
    error(issues, 'donor', 'FIELD_NOT_OBJECT', 'Donor must be an object.');
    return;
  }
  for (const key in value) {
    if (key !== 'receipted' && key !== 'fullName' && key !== 'email' && key !== 'address')
      unknownKey(issues, 'donor', key);
  }
  if (value.receipted !== undefined && typeof value.receipted !== 'boolean') {
    error(issues, 'donor.receipted', 'RECEIPTED_INVALID', 'Receipt wanted must be yes or no.');
  }
  optionalText(issues, value, 'fullName', 'donor.fullName');
  const email = optionalText(issues, value, 'email', 'donor.email');
  if (email !== undefined && !isEmail(email))
    error(issues, 'donor.email', 'EMAIL_INVALID', emailProblem(email));

  const address = value.address;
  if (address === undefined) return;
  if (!isObject(address)) {
    error(issues, 'donor.address', 'FIELD_NOT_OBJECT', 'Donor address must be an object.');
    return;
  }
  for (const key in address) {
    if (
      key !== 'line1' &&
      key !== 'line2' &&
      key !== 'city' &&
      key !== 'state' &&
      key !== 'zip' &&
      key !== 'country'
    ) {
      unknownKey(issues, 'donor.address', key);
    }
  }
  for (const key of ADDRESS_KEYS) {
    const text = optionalText(issues, address, key, `donor.address.${key}`);
    if (key === 'country' && text !== undefined && !isCountryCode(text)) {
      const upper = text.trim().toUpperCase();
      error(
        issues,
        'donor.address.country',
        'COUNTRY_INVALID',
        isCountryCode(upper)
          ? `Country "${text}" must be written as ${upper}.`
          : `Country "${text}" is not an ISO 3166 two-letter code. Enter a code such as US, GB or DE.`,
      );
    }
  }
}

function checkMetadata(issues: Issues, value: unknown): void {
  if (value === undefined) return;
  if (!isObject(value)) {
    error(issues, 'metadata', 'FIELD_NOT_OBJECT', 'Metadata must be an object of key/value pairs.');
    return;
  }
  let count = 0;
  for (const key in value) {
    count++;
    // The field name is only made for a pair with a problem (every row has a reference pair).
    const keyProblem = metadataKeyProblem(key);
    if (keyProblem) error(issues, `metadata.${key}`, keyProblem.code, keyProblem.message);
    const v = value[key];
    if (typeof v !== 'string') {
      error(issues, `metadata.${key}`, 'METADATA_VALUE_NOT_TEXT', `Metadata "${key}" must be text.`);
      continue;
    }
    const valueProblem = metadataValueProblem(key, v);
    if (valueProblem) error(issues, `metadata.${key}`, valueProblem.code, valueProblem.message);
  }
  if (count > METADATA_MAX_PAIRS) {
    error(
      issues,
      'metadata',
      'METADATA_TOO_MANY',
      `There are ${count} metadata pairs; at most ${METADATA_MAX_PAIRS} are allowed. Map fewer columns to metadata.`,
    );
  }
}

/**
 * Checks donation create attributes (`destination`, `funds`, `donor`, `metadata`) against every rule
 * of the spec plus email, country and receipted. Returns errors (block upload) and warnings (do not).
 */
export function validateDonation(attributes: unknown): DonationIssue[] {
  const issues: DonationIssue[] = [];
  if (!isObject(attributes)) {
    error(issues, '', 'DONATION_NOT_OBJECT', 'The donation is not an object.');
    return issues;
  }
  for (const key in attributes) {
    if (key !== 'destination' && key !== 'funds' && key !== 'donor' && key !== 'metadata')
      unknownKey(issues, '', key);
  }
  checkDestination(issues, attributes.destination);
  checkFunds(issues, attributes.funds);
  checkDonor(issues, attributes.donor);
  checkMetadata(issues, attributes.metadata);
  return issues;
}

/** True when the issues contain no error (warnings do not block). */
export function hasErrors(issues: readonly DonationIssue[]): boolean {
  for (const issue of issues) if (issue.severity === 'error') return true;
  return false;
}
