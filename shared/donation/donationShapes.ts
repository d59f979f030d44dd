import { z } from 'zod';
import { isCurrencyCode } from '../amounts';
import { isCountryCode } from './countries';
import { isEmail } from './email';
import { METADATA_KEY, METADATA_MAX_PAIRS, metadataValueProblem } from './metadataRules';
import { checkRecipientId, isFoundationId } from './recipientId';
import { FUNDS_SOURCE, PAYMENT_TYPE } from './types';

/*
 * zod shapes of the donation create payload and the bulk file, for parsing at trust boundaries
 * (a file the user opens, IPC input in main, the emulator's disagreement tests). They use the same
 * predicates as validateDonation, and validateDonation.agreement.test.ts checks the two agree.
 * Objects are strict: the service knows no other attributes, and a typo should not pass silently.
 */

const nonBlank = z.string().refine((s) => s.trim() !== '', { message: 'Must not be blank.' });

export const recipientIdSchema = z
  .string()
  .refine((s) => s.trim() !== '' && checkRecipientId(s)?.severity !== 'error', {
    message: 'Not a cause, cause/project or portfolio id.',
  });

export const currencyCodeSchema = z
  .string()
  .max(3)
  .refine(isCurrencyCode, { message: 'Not an ISO 4217 currency code.' });

export const countryCodeSchema = z
  .string()
  .refine(isCountryCode, { message: 'Not an ISO 3166 two-letter country code.' });

export const metadataSchema = z
  .record(
    z.string().regex(METADATA_KEY),
    z.string().refine((v) => metadataValueProblem('', v) === undefined, {
      message: '1–190 characters of the Basic Multilingual Plane.',
    }),
  )
  .refine((m) => Object.keys(m).length <= METADATA_MAX_PAIRS, {
    message: `At most ${METADATA_MAX_PAIRS} pairs.`,
  });

export const donorAddressSchema = z.strictObject({
  line1: nonBlank.optional(),
  line2: nonBlank.optional(),
  city: nonBlank.optional(),
  state: nonBlank.optional(),
  zip: nonBlank.optional(),
  country: countryCodeSchema.optional(),
});

export const donorSchema = z.strictObject({
  receipted: z.boolean().optional(),
  fullName: nonBlank.optional(),
  email: z.string().refine(isEmail, { message: 'Not a valid email address.' }).optional(),
  address: donorAddressSchema.optional(),
});

/** The `attributes` of a donation on create and in a bulk file. */
export const donationAttributesSchema = z.strictObject({
  destination: z.strictObject({
    recipientId: recipientIdSchema,
    foundationId: z.string().refine(isFoundationId, { message: 'Not a foundation id.' }).optional(),
  }),
  funds: z.strictObject({
    paymentType: z.literal(PAYMENT_TYPE),
    currencyCode: currencyCodeSchema,
    amount: z.number().int().positive(),
    source: z.literal(FUNDS_SOURCE).optional(),
  }),
  donor: donorSchema.optional(),
  metadata: metadataSchema.optional(),
});

/** Body of POST /donations. */
export const donationCreateRequestSchema = z.strictObject({
  data: z.strictObject({ type: z.literal('donations'), attributes: donationAttributesSchema }),
});

/** One element of a bulk file's `data`. */
export const bulkFileEntrySchema = z.strictObject({
  type: z.literal('donations'),
  attributes: donationAttributesSchema,
});

/** A bulk file: the only top-level attribute is `data`. */
export const bulkFileSchema = z.strictObject({ data: z.array(bulkFileEntrySchema) });

export type DonationAttributes = z.infer<typeof donationAttributesSchema>;
export type DonorAttributes = z.infer<typeof donorSchema>;
export type DonorAddress = z.infer<typeof donorAddressSchema>;
export type DonationCreateRequest = z.infer<typeof donationCreateRequestSchema>;
export type BulkFileEntry = z.infer<typeof bulkFileEntrySchema>;
export type BulkFile = z.infer<typeof bulkFileSchema>;

/** Turns a zod issue path into the donation attribute path validateDonation reports. */
export function zodPathToField(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}
