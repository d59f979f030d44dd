/** The one set of donation rules used by the renderer, the CLI and main before any upload. */
export { FUNDS_SOURCE, PAYMENT_TYPE, type DonationField, type DonationIssue } from './types';
/** Fast hand-written check of create attributes (≥1M rows/s); returns errors and warnings. */
export { hasErrors, validateDonation } from './validateDonation';
/** zod shapes (parsed at trust boundaries) and the types derived from them. */
export {
  bulkFileEntrySchema,
  bulkFileSchema,
  countryCodeSchema,
  currencyCodeSchema,
  donationAttributesSchema,
  donationCreateRequestSchema,
  donorAddressSchema,
  donorSchema,
  metadataSchema,
  recipientIdSchema,
  zodPathToField,
  type BulkFile,
  type BulkFileEntry,
  type DonationAttributes,
  type DonationCreateRequest,
  type DonorAddress,
  type DonorAttributes,
} from './donationShapes';
/** Recipient id shapes: cause, cause/project, portfolio (see recipientId.ts for the exact rules). */
export {
  CAUSE_ID,
  PORTFOLIO_ID,
  PROJECT_ID,
  checkRecipientId,
  isFoundationId,
  recipientShape,
  type RecipientShape,
} from './recipientId';
/** Individual rules, for cell editors that check as the person types. */
export { emailProblem, isEmail } from './email';
export { COUNTRY_CODES, isCountryCode, toCountryCode } from './countries';
export { parseYesNo } from './receipted';
export {
  METADATA_KEY,
  METADATA_KEY_MAX,
  METADATA_MAX_PAIRS,
  METADATA_VALUE_MAX,
  metadataKeyProblem,
  metadataValueProblem,
} from './metadataRules';
/** Human names of attribute paths for messages and column pickers. */
export { fieldLabel } from './fieldLabels';
/** Non-blocking warnings across the rows of a file (duplicates, outliers). */
export {
  checkFile,
  checkFileDigests,
  donorKey,
  duplicateGiftIssue,
  duplicateRowIssue,
  emptyDigests,
  median,
  setDigest,
  unusualAmountIssue,
  type CheckableDonation,
  type FileCheckOptions,
  type FileDigests,
  type FileIssue,
} from './fileChecks';
/** Stable 64-bit content fingerprint for the duplicate guard and error-file matching. */
export {
  canonicalDonationText,
  canonicalJson,
  fingerprintDonation,
  fnv1a64,
  type FingerprintOptions,
} from './fingerprint';
/** Count and sum per currency, and the largest recipients, in minor units. */
export { largestRecipients, totalsByCurrency, type CurrencyTotal, type RecipientTotal } from './summary';
