import { z } from 'zod';

/*
 * zod shapes of what the giving service sends back, for the API client (every response is parsed)
 * and for error files. Objects are loose: the service may add attributes over time, and an extra
 * field must not turn a good response into a failure. Enumerations are the documented values.
 */

/** Error object (declined donation `state.errors`, bulk error files). `status` is HTTP status as text. */
export const serviceErrorSchema = z.looseObject({
  status: z
    .union([z.string(), z.number()])
    .transform((s) => String(s))
    .optional(),
  code: z.string().optional(),
  title: z.string().optional(),
  detail: z.string().nullable().optional(),
  source: z.looseObject({ pointer: z.string().nullable().optional() }).nullable().optional(),
  meta: z.unknown().optional(),
});
export type ServiceError = z.infer<typeof serviceErrorSchema>;

export const PROCESSING_STATUSES = [
  'ACCEPTED',
  'INITIATED',
  'IN_PROGRESS',
  'PAID',
  'CLEARED',
  'DECLINED',
] as const;
export const BULK_STATUSES = [
  'PENDING',
  'UPLOADED',
  'VALIDATED',
  'PROCESSING',
  'PROCESSED',
  'ERROR',
] as const;

export const donationResponseAttributesSchema = z.looseObject({
  destination: z.looseObject({ recipientId: z.string(), foundationId: z.string().optional() }),
  funds: z.looseObject({
    paymentType: z.string(),
    currencyCode: z.string(),
    amount: z.number().int(),
    source: z.string().optional(),
    receiptId: z.string().optional(),
  }),
  donor: z
    .looseObject({
      receipted: z.boolean().optional(),
      fullName: z.string().optional(),
      email: z.string().optional(),
      address: z.record(z.string(), z.string().nullable()).optional(),
    })
    .nullable()
    .optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  payable: z
    .looseObject({ paymentType: z.enum(['CHEQUE', 'EFT', 'PAYPAL']) })
    .nullable()
    .optional(),
  state: z.looseObject({
    processingStatus: z.enum(PROCESSING_STATUSES),
    statusLastUpdated: z.string().optional(),
    errors: z.array(serviceErrorSchema).optional(),
  }),
  // Null on a single donation (POST /donations), which no bulk created.
  bulkId: z.string().nullable().optional(),
});

export const donationResourceSchema = z.looseObject({
  type: z.literal('donations'),
  id: z.string(),
  attributes: donationResponseAttributesSchema,
});

/** Response of POST /donations and GET /donations/{id}. */
export const donationResponseSchema = z.looseObject({ data: donationResourceSchema });

/** Response of GET /donations (cursor pages). */
export const donationListResponseSchema = z.looseObject({
  meta: z.looseObject({
    count: z.number().int().nonnegative(),
    page: z.looseObject({ rangeTruncated: z.boolean().optional() }).optional(),
  }),
  links: z
    .looseObject({ previous: z.string().nullable().optional(), next: z.string().nullable().optional() })
    .optional(),
  data: z.array(donationResourceSchema),
});

/** One entry of a bulk intent's `errors`: code INVALID_BULK_DONATIONS and the error-file address. */
export const bulkIntentErrorSchema = z.looseObject({
  code: z.string(),
  title: z.string().optional(),
  detail: z.string().nullable().optional(),
  links: z.looseObject({ href: z.string() }).optional(),
});

export const bulkIntentResourceSchema = z.looseObject({
  type: z.literal('bulkDonationIntent'),
  id: z.string(),
  attributes: z.looseObject({
    status: z.enum(BULK_STATUSES),
    createdAt: z.string(),
    updatedAt: z.string().optional(),
    expiresAt: z.string().optional(),
    url: z.string().optional(),
    fields: z.record(z.string(), z.string()).optional(),
    // An array when donations are invalid, a single object when the file itself is: both occur.
    errors: z.union([z.array(bulkIntentErrorSchema), bulkIntentErrorSchema]).optional(),
  }),
  links: z
    .looseObject({
      related: z
        .looseObject({
          href: z.string(),
          meta: z
            .looseObject({
              uploaded: z.number().int().optional(),
              accepted: z.number().int().optional(),
              invalid: z.number().int().optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
});

/** Response of POST /donations/bulk-intents and GET /donations/bulk-intents/{id}. */
export const bulkIntentResponseSchema = z.looseObject({ data: bulkIntentResourceSchema });

export type DonationResponse = z.infer<typeof donationResponseSchema>;
export type DonationResource = z.infer<typeof donationResourceSchema>;
export type DonationListResponse = z.infer<typeof donationListResponseSchema>;
export type BulkIntentResponse = z.infer<typeof bulkIntentResponseSchema>;
export type BulkIntentResource = z.infer<typeof bulkIntentResourceSchema>;
export type BulkIntentError = z.infer<typeof bulkIntentErrorSchema>;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];
export type BulkStatus = (typeof BULK_STATUSES)[number];
