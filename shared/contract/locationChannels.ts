import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max);

/** A location as the service returns it inside `data.attributes` (the id is `attributes.id`). */
export const locationSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  referenceId: z.string().nullish(),
  phoneNumber: z.string().nullish(),
  address: z
    .object({
      addressLine: z.string().nullish(),
      country: z.string().nullish(),
      district: z.string().nullish(),
      locality: z.string().nullish(),
      postalCode: z.string().nullish(),
      geoCoordinate: z.object({ latitude: z.number(), longitude: z.number() }).nullish(),
    })
    .nullish(),
  tags: z.array(z.object({ _id: z.string(), name: z.string(), value: z.string() })).nullish(),
  contacts: z
    .array(
      z.object({
        id: z.string(),
        contactId: z.string(),
        locationId: z.string().nullish(),
        isPrimary: z.boolean(),
        firstName: z.string().nullish(),
        lastName: z.string().nullish(),
        emailAddress: z.string().nullish(),
      }),
    )
    .nullish(),
});
export type Location = z.infer<typeof locationSchema>;

export const contactSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

export const tagSchema = z.object({ id: z.string(), name: z.string(), value: z.string() });
export type Tag = z.infer<typeof tagSchema>;

/** A location in the app's local register: the service has no listing, so the app keeps what it saw. */
export const registeredLocationSchema = z.object({
  location: locationSchema,
  /** When the app last saw this location in a service answer. */
  seenAt: z.string(),
});
export type RegisteredLocation = z.infer<typeof registeredLocationSchema>;

const addressInput = z
  .object({
    addressLine: text(300).optional(),
    country: text(2).optional(),
    district: text(200).optional(),
    locality: text(200).optional(),
    postalCode: text(40).optional(),
    geoCoordinate: z
      .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .optional(),
  })
  .strict();

/** A location to add or update in a batch, in the service's own attribute names. */
export const locationInputSchema = z
  .object({
    name: text(300).optional(),
    referenceId: text(200).optional(),
    phoneNumber: text(60).optional(),
    address: addressInput.optional(),
    tags: z
      .array(z.object({ name: text(200), value: text(200) }).strict())
      .max(200)
      .optional(),
    contacts: z
      .array(
        z
          .object({
            firstName: text(200),
            lastName: text(200),
            emailAddress: text(320),
            isPrimary: z.boolean(),
          })
          .strict(),
      )
      .max(200)
      .optional(),
  })
  .strict();
export type LocationInput = z.infer<typeof locationInputSchema>;

/**
 * One row of a batch: `save` becomes an Add, or an Update when the referenceId is already in the local
 * register; `remove` removes the registered location with that referenceId.
 */
export const batchItemSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('save'), location: locationInputSchema }).strict(),
  z.object({ action: z.literal('remove'), referenceId: text(200).min(1) }).strict(),
]);
export type BatchItem = z.infer<typeof batchItemSchema>;

export const batchErrorSchema = z.object({
  /** Attribute path inside the location, e.g. `contacts.0.emailAddress`; empty for the whole row. */
  field: z.string(),
  message: z.string(),
  code: z.string().optional(),
});

export const batchOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('applied'),
    op: z.enum(['add', 'update', 'remove']),
    location: locationSchema,
  }),
  z.object({
    status: z.literal('failed'),
    op: z.enum(['add', 'update', 'remove']).nullable(),
    errors: z.array(batchErrorSchema),
  }),
  /** Not applied because the batch it was in was refused for other rows, and `applyValid` was off. */
  z.object({ status: z.literal('notApplied'), op: z.enum(['add', 'update', 'remove']) }),
]);
export type BatchOutcome = z.infer<typeof batchOutcomeSchema>;

const locationId = z.string().min(1).max(200);
const entityId = z.string().min(1).max(200);

const locationChanges = z
  .object({
    name: text(300).min(1).optional(),
    referenceId: text(200).min(1).optional(),
    phoneNumber: text(60).optional(),
    address: addressInput.optional(),
  })
  .strict();

const contactFields = z
  .object({ firstName: text(200).min(1), lastName: text(200).min(1), emailAddress: text(320).min(3) })
  .strict();

/** Channels of the location area, spread into `channels` in channels.ts. */
export const locationChannels = {
  'locations.list': {
    request: z.object({}).strict(),
    response: z.object({
      locations: z.array(registeredLocationSchema),
      contacts: z.array(contactSchema),
      tags: z.array(tagSchema),
    }),
  },
  'locations.batch': {
    request: z
      .object({
        items: z.array(batchItemSchema).min(1).max(10_000),
        /** When the service refuses some rows, send the others again without them (each batch stays atomic). */
        applyValid: z.boolean().default(true),
      })
      .strict(),
    /** One outcome per item, in the order given. */
    response: z.object({ outcomes: z.array(batchOutcomeSchema) }),
  },
  'locations.update': {
    request: z.object({ id: locationId, changes: locationChanges }).strict(),
    response: locationSchema,
  },
  /** Forget a location in the local register only (the service keeps it). */
  'locations.forget': {
    request: z.object({ id: locationId }).strict(),
    response: z.object({ forgotten: z.boolean() }),
  },
  'contacts.create': { request: contactFields, response: contactSchema },
  'contacts.update': {
    request: z.object({ contactId: entityId, changes: contactFields.partial() }).strict(),
    response: contactSchema,
  },
  'contacts.assign': {
    request: z.object({ locationId, contactId: entityId, isPrimary: z.boolean().default(false) }).strict(),
    response: locationSchema,
  },
  'contacts.setPrimary': {
    request: z.object({ locationId, locationContactId: entityId, isPrimary: z.boolean() }).strict(),
    response: locationSchema,
  },
  'contacts.unassign': {
    request: z.object({ locationId, locationContactId: entityId }).strict(),
    response: locationSchema,
  },
  'tags.create': {
    request: z.object({ name: text(200).min(1), value: text(200).min(1) }).strict(),
    response: tagSchema,
  },
  'tags.update': {
    request: z.object({ tagId: entityId, name: text(200).min(1), value: text(200).min(1) }).strict(),
    response: tagSchema,
  },
  'tags.assign': {
    request: z.object({ locationId, tagId: entityId }).strict(),
    response: locationSchema,
  },
  'tags.remove': {
    request: z.object({ locationId, tagId: entityId }).strict(),
    response: locationSchema,
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;
