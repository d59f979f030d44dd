/**
 * Plain words for the service's statuses and codes. A person sees the words; the code stays
 * available (tooltips, exports, the CLI's --json) through `withCode()`.
 */

const donationStatusWords: Record<string, string> = {
  ACCEPTED: 'Accepted, not yet decided',
  INITIATED: 'Approved for payment',
  IN_PROGRESS: 'Being paid',
  PAID: 'Paid',
  CLEARED: 'Cleared',
  DECLINED: 'Declined',
};

const bulkStatusWords: Record<string, string> = {
  PENDING: 'Waiting for the file',
  UPLOADED: 'File received',
  VALIDATED: 'File checked',
  PROCESSING: 'Creating donations',
  PROCESSED: 'Processed',
  ERROR: 'Rejected',
};

const codeWords: Record<string, string> = {
  // Declines
  RECIPIENT_NOT_FOUND: 'The service does not know this recipient',
  CAUSE_NOT_IN_GOOD_STANDING: 'The cause cannot receive donations at the moment',
  PROGRAM_BUDGET_EXCEEDED: "Over the giving program's monthly budget",
  // Bulk file and field errors
  INVALID_BULK_DONATIONS: 'Some rows were rejected',
  BULK_EXTRACTION_FAILED: 'The service stopped part-way through the file',
  EXTRACTION_FAILED: 'The service could not create this donation',
  REQUIRED: 'A required value is missing',
  INVALID_AMOUNT: 'The amount is not valid',
  INVALID_CURRENCY: 'The currency is not valid',
  INVALID_RECIPIENT_ID: 'The recipient id is not valid',
  INVALID_EMAIL: 'The e-mail address is not valid',
  INVALID_COUNTRY: 'The country is not valid',
  INVALID_PAYMENT_TYPE: 'The payment type is not valid',
  INVALID_TYPE: 'A value has the wrong type',
  INVALID_VALUE: 'A value is not allowed',
  INVALID_BODY: 'The request could not be read',
  UNKNOWN_ATTRIBUTE: 'An attribute the service does not know',
  METADATA_INVALID_KEY: 'A metadata name is not allowed',
  METADATA_INVALID_VALUE: 'A metadata value is not allowed',
  METADATA_TOO_MANY_PAIRS: 'Too many metadata pairs (100 at most)',
  NOT_FOUND: 'Not found at the service',
  REFERENCE_ID_IN_USE: 'This reference id is already used',
  EMAIL_IN_USE: 'This e-mail address is already used',
  MULTIPLE_PRIMARY: 'Only one contact can be primary',
  INVALID_PHONE: 'The phone number is not valid',
  INVALID_COORDINATES: 'The coordinates are not valid',
  ALREADY_ASSIGNED: 'Already assigned',
  TOO_MANY_OPERATIONS: 'Too many changes in one request',
  SCHEDULED_MAINTENANCE: 'The service is down for scheduled maintenance',
  INTERNAL_ERROR: 'The service had an internal error',
  SERVICE_UNAVAILABLE: 'The service is unavailable for now',
  TOO_MANY_REQUESTS: 'The service asked us to slow down',
};

/** "SOME_CODE" → "Some code": a readable fallback for a code not known here. */
function humanise(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : code;
}

/** A donation's processing status in plain words (ACCEPTED → "Accepted, not yet decided"). */
export function donationStatusWord(status: string): string {
  return donationStatusWords[status] ?? humanise(status);
}

/** A bulk intent's status in plain words (ERROR → "Rejected"). */
export function bulkStatusWord(status: string): string {
  return bulkStatusWords[status] ?? humanise(status);
}

/** Whether the app has its own words for this code (otherwise the service's own title reads better). */
export function hasCodeWord(code: string): boolean {
  return Object.hasOwn(codeWords, code);
}

/** An error or decline code in plain words; unknown codes are made readable, never dropped. */
export function codeWord(code: string): string {
  return codeWords[code] ?? humanise(code);
}

/** Plain words followed by the code, for tooltips and exports: "Declined (DECLINED)". */
export function withCode(words: string, code: string): string {
  return `${words} (${code})`;
}
