import { z } from 'zod';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Give the date as YYYY-MM-DD.');
const id = z.string().trim().min(1).max(200);

/** What the Audit view and `donation-desk audit` can narrow the trail to. */
export const auditFilterSchema = z
  .object({
    workspaceId: id.optional(),
    uploadId: id.optional(),
    donationId: id.optional(),
    person: id.optional(),
    /** First day included (UTC). */
    since: day.optional(),
    /** Last day included (UTC). */
    until: day.optional(),
  })
  .strict();
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditActions = [
  'import',
  'edit',
  'delete-workspace',
  'upload',
  'resend',
  'correct',
  'fix-in-grid',
  'correct-from-workspace',
  'single-donation',
  'dismiss',
  'settings',
  'release-correction',
  'approval-blocked',
] as const;
export const auditActionSchema = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** One entry of the trail: when (UTC), who, where, what, about what, and the details as recorded. */
export const auditEntrySchema = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  person: z.string(),
  computer: z.string(),
  environment: z.string(),
  action: z.string(),
  workspaceId: z.string().nullable(),
  uploadId: z.string().nullable(),
  donationId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * One trail checked link by link (`audit verify`, Settings → Data, the Audit view): the data
 * folder's own, or the team database's. `whole` when every entry still carries the hash it was
 * written with, chained to the one before; otherwise the first entry found broken and why, in words.
 */
export const trailCheckSchema = z.object({
  trail: z.enum(['folder', 'team']),
  whole: z.boolean(),
  /** How many entries the trail holds. */
  entries: z.number().int().nonnegative(),
  firstBroken: z
    .object({
      seq: z.number().int().positive(),
      /** When that entry says it was written (UTC, ISO), when it is still there to say. */
      at: z.string().optional(),
      /** What is wrong with it, as a clause: "its content was changed after it was written". */
      reason: z.string(),
    })
    .optional(),
});
export type TrailCheck = z.infer<typeof trailCheckSchema>;

export const auditChannels = {
  /** A page of the trail, newest first; `before` is the `seq` the previous page ended at. */
  'audit.list': {
    request: z
      .object({
        filter: auditFilterSchema,
        before: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .strict(),
    response: z.object({
      entries: z.array(auditEntrySchema),
      /** How many entries match the filter in all. */
      total: z.number().int().nonnegative(),
      /** Pass as `before` for the next (older) page; null on the last page. */
      nextBefore: z.number().int().positive().nullable(),
      /** Everyone who appears in the trail, for the person filter. */
      people: z.array(z.string()),
    }),
  },
  /** Every entry that matches the filter, as an xlsx or CSV file for the auditors. */
  'audit.export': {
    request: z.object({ filter: auditFilterSchema, format: z.enum(['xlsx', 'csv']) }).strict(),
    response: z.object({ fileName: z.string(), base64: z.string(), entries: z.number().int().nonnegative() }),
  },
  /**
   * Checks that no entry was changed, removed or added from outside the app: the data folder's
   * trail, and the team's too when a team database is in force (as `donation-desk audit verify`).
   */
  'audit.verify': {
    request: z.object({}).strict(),
    response: z.array(trailCheckSchema),
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;
