import { z } from 'zod';

/** Decimal degrees as the service sends them (strings) or as numbers; the app only displays them. */
const degrees = z.union([z.string(), z.number()]);
const geo = z.object({ latitude: degrees, longitude: degrees }).nullish();

const causeSchema = z.object({
  name: z.string(),
  logo_url: z.string().nullish(),
  geo_coordinates: geo,
});

const projectSchema = z.object({
  name: z.string(),
  cause: z.object({ name: z.string(), logo_url: z.string().nullish() }).nullish(),
  geo_coordinates: geo,
});

/** Snippets are strings whose only markup is `<em>`; the renderer never treats them as HTML. */
const snippetsSchema = z.object({
  cause: z.union([z.string(), z.array(z.string())]).nullish(),
  tag: z.union([z.string(), z.array(z.string())]).nullish(),
  title: z.array(z.string()).nullish(),
  body: z.array(z.string()).nullish(),
});

/** One search result, as the spec describes it (the service's snake_case names are kept). */
export const givingOpportunitySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  image_url: z.string().nullish(),
  creator_id: z.string().nullish(),
  creator_name: z.string().nullish(),
  creator_type: z.string().nullish(),
  peer_match: z.boolean().nullish(),
  company_match: z.boolean().nullish(),
  portfolio_code: z.string().nullish(),
  projects: z.array(projectSchema).nullish(),
  causes: z.array(causeSchema).nullish(),
  tags: z.array(z.string()).nullish(),
  product_area: z.unknown().optional(),
  office_location: z.unknown().optional(),
  snippets: snippetsSchema.nullish(),
});
export type GivingOpportunity = z.infer<typeof givingOpportunitySchema>;

export const searchResponseSchema = z.object({ giving_opportunities: z.array(givingOpportunitySchema) });

/** `lat,long` in decimal degrees, each in range. */
export const coordinatesSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});
export type Coordinates = z.infer<typeof coordinatesSchema>;

/**
 * The spec writes the donation page as `{program_url}/<locale>/campaigns/donate/<id>` without saying
 * what a locale looks like. The app sends the browser's language in the usual BCP 47 casing, language
 * and region only (`en-US`, `pt-BR`, `de`; a script subtag is dropped: `zh-Hant-TW` → `zh-TW`), which
 * is also what the Offline sandbox's program pages accept; anything unreadable becomes `en-US`.
 */
export function pageLocale(language: string | undefined): string {
  const parts = (language ?? '').trim().replace(/_/g, '-').split('-');
  const lang = (parts[0] ?? '').toLowerCase();
  if (!/^[a-z]{2}$/.test(lang)) return 'en-US';
  const region = parts.slice(1).find((p) => /^[a-z]{2}$/i.test(p));
  return region ? `${lang}-${region.toUpperCase()}` : lang;
}

export function donationPageUrl(programUrl: string, locale: string, id: number): string {
  return `${programUrl.replace(/\/+$/, '')}/${encodeURIComponent(locale)}/campaigns/donate/${id}`;
}

/** Channels of the search area, spread into `channels` in channels.ts. */
/**
 * A cause this app has seen declined because it cannot take money (the service's cause look-ups say
 * nothing of it): the code, its plain words, and when and which donation said so.
 */
export const cannotReceiveSchema = z.object({
  code: z.string(),
  reason: z.string(),
  declinedAt: z.string(),
  donationId: z.string(),
});
export type CannotReceive = z.infer<typeof cannotReceiveSchema>;

export const searchChannels = {
  'search.run': {
    request: z
      .object({
        q: z.string().trim().min(1, 'Enter a topic to search for.').max(200),
        near: coordinatesSchema.optional(),
        autocorrect: z.boolean().default(false),
      })
      .strict(),
    response: z.object({
      results: z.array(givingOpportunitySchema),
      /** Where donation pages and images live: `{programUrl}/<locale>/campaigns/donate/<id>`. */
      programUrl: z.string(),
      elapsedMs: z.number(),
    }),
  },
  /** An image of the program domain, fetched by main, as a data: URL (the renderer's CSP allows only those). */
  'search.image': {
    request: z.object({ path: z.string().min(1).max(500) }).strict(),
    response: z.object({ dataUrl: z.string().nullable() }),
  },
  /** The recipient id of a cause (and optionally one of its projects) named in a search result. */
  'search.recipient': {
    request: z
      .object({
        causeName: z.string().trim().min(1).max(300),
        projectName: z.string().trim().min(1).max(300).optional(),
      })
      .strict(),
    response: z.object({
      recipientId: z.string(),
      label: z.string(),
      cannotReceive: cannotReceiveSchema.nullable(),
    }),
  },
  /** Type-ahead for the recipient field (GET /autocomplete/causes); available false where the service has none. */
  'causes.autocomplete': {
    request: z.object({ q: z.string().trim().min(1).max(200) }).strict(),
    response: z.object({
      available: z.boolean(),
      causes: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          city: z.string().nullable(),
          country: z.string().nullable(),
          cannotReceive: cannotReceiveSchema.nullable(),
        }),
      ),
    }),
  },
  /**
   * Checks a recipient id with GET /causes/{id}: found (with its name, and the project for a
   * cause/project pair), unknown, or not checkable (a portfolio, or a service without the endpoint).
   */
  'causes.check': {
    request: z.object({ recipientId: z.string().trim().min(1).max(200) }).strict(),
    response: z.object({
      status: z.enum(['found', 'unknown', 'unknown-project', 'not-checked']),
      label: z.string().nullable(),
      message: z.string(),
      cannotReceive: cannotReceiveSchema.nullable(),
    }),
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;
