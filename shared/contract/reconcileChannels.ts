import { z } from 'zod';

export const donationStatusSchema = z.enum([
  'ACCEPTED',
  'INITIATED',
  'IN_PROGRESS',
  'PAID',
  'CLEARED',
  'DECLINED',
]);
export type DonationStatus = z.infer<typeof donationStatusSchema>;

const bulkId = z.string().min(1).max(200);
const jobId = z.string().min(1).max(100);

/** One `state.errors` entry of a declined donation, every part spelled out (empty when the service left it out). */
export const donationErrorSchema = z.object({
  status: z.string(),
  code: z.string(),
  title: z.string(),
  detail: z.string(),
  /** The JSON pointer as sent, e.g. /data/attributes/destination/recipientId. */
  pointer: z.string(),
});

export const historyEntrySchema = z.object({
  state: donationStatusSchema,
  /** When this app first saw the donation in this state (local clock, ISO). */
  seenAt: z.string(),
  /** The service's statusLastUpdated at that time, when it gave one. */
  statusLastUpdated: z.string().nullable(),
});

export const donationRowSchema = z.object({
  workspaceId: z.string(),
  rowKey: z.number().int(),
  /** The source spreadsheet's row number; null for rows added in the app. */
  rowNumber: z.number().int().nullable(),
  /** How the donation was tied to the row: the reference metadata pair (certain) or content fingerprint. */
  method: z.enum(['reference', 'fingerprint']),
});

/** What became of a declined donation: it stays open until it has a replacement or is dismissed. */
export const resolutionSchema = z.discriminatedUnion('kind', [
  /**
   * A corrected donation was sent and no answer came back: it may or may not exist. `sent` is what
   * it asked for, to send the same again if it turns out not to exist.
   */
  z.object({
    kind: z.literal('replacing'),
    at: z.string(),
    sent: z
      .object({ recipientId: z.string(), amount: z.number().int(), currencyCode: z.string() })
      .optional(),
  }),
  z.object({
    kind: z.literal('replaced'),
    at: z.string(),
    replacementId: z.string(),
    /** Team mode: the colleague whose correction replaced it, from another computer. */
    by: z.string().optional(),
  }),
  z.object({
    kind: z.literal('dismissed'),
    at: z.string(),
    reason: z.string(),
    /** Team mode: the colleague who dismissed it, from another computer. */
    by: z.string().optional(),
  }),
]);
export type Resolution = z.infer<typeof resolutionSchema>;

/**
 * A declined donation is open until it is replaced or dismissed: a correction whose answer never
 * came may not exist, so it leaves it open.
 */
export const isOpenResolution = (resolution: Resolution | null): boolean =>
  resolution === null || resolution.kind === 'replacing';

export const donationViewSchema = z.object({
  id: z.string(),
  recipientId: z.string(),
  foundationId: z.string().nullable(),
  /** Minor units of currencyCode. */
  amount: z.number().int(),
  currencyCode: z.string(),
  donorName: z.string().nullable(),
  state: donationStatusSchema,
  statusLastUpdated: z.string().nullable(),
  payablePaymentType: z.string().nullable(),
  receiptId: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  bulkId: z.string().nullable(),
  row: donationRowSchema.nullable(),
  errors: z.array(donationErrorSchema),
  history: z.array(historyEntrySchema),
  /** Last time the service was asked about this donation (local clock, ISO). */
  lastSeenAt: z.string(),
  /** For a declined donation: its replacement or dismissal; null while it is open. */
  resolution: resolutionSchema.nullable(),
  /** For a replacement: the declined donation it corrects. */
  replaces: z.string().nullable(),
  /**
   * For an open declined donation: the upload (a corrections workspace sent as a bulk file) that is
   * carrying its replacement now; null when none is.
   */
  inUpload: z
    .object({
      uploadId: z.string(),
      workspaceId: z.string(),
      workspaceName: z.string(),
      createdAt: z.string(),
    })
    .nullable(),
  /**
   * Team mode, for a declined donation this computer has not settled: a colleague's correction of
   * it on the team database, in progress or done; null alone, when none, or when the server could
   * not be asked.
   */
  correctionElsewhere: z
    .object({
      /** The colleague's login. */
      by: z.string(),
      computer: z.string(),
      /** When the correction was claimed (ISO). */
      since: z.string(),
      state: z.enum(['in-progress', 'done']),
      replacementId: z.string().nullable(),
    })
    .nullable(),
});
export type DonationView = z.infer<typeof donationViewSchema>;

/** Where a page of donations continues: after this donation, in the order first seen. */
const cursorSchema = z
  .object({ firstSeenAt: z.string().max(100), seq: z.number().int().nonnegative() })
  .strict();

export const donationListSchema = z.object({
  /** The donations listed, or with `limit` one page of them (in the order first seen). */
  donations: z.array(donationViewSchema),
  /** How many donations the list holds in all (counted by the database). */
  total: z.number().int().nonnegative(),
  /** With `limit`, where the next page starts (give it as `after`); null at the end. */
  next: cursorSchema.nullable(),
  /** When the service was last asked about the listed bulks; null when the list came from the store only. */
  lastRefreshAt: z.string().nullable(),
  /** Pages read from the service by this call (0 when served from the store). */
  pages: z.number().int().nonnegative(),
});

export const statusTotalSchema = z.object({
  status: donationStatusSchema,
  currencyCode: z.string(),
  count: z.number().int().nonnegative(),
  amount: z.number().int(),
});

const moneyTotalSchema = z.object({
  currencyCode: z.string(),
  count: z.number().int().nonnegative(),
  amount: z.number().int(),
});

export const uploadControlSchema = z.object({
  uploadId: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
  createdAt: z.string(),
  /** Team mode: who sent it, when another computer of the team did (its rows are there, not here). */
  sentElsewhere: z.object({ by: z.string(), computer: z.string() }).nullable().optional(),
  /** Service ids of the upload's bulks that created donations. */
  bulkIds: z.array(z.string()),
  /** Rows of processed parts, per currency, from the ledger (what was sent and taken). */
  submitted: z.array(moneyTotalSchema),
  /** Donations past ACCEPTED that were not declined (INITIATED and later). */
  accepted: z.array(moneyTotalSchema),
  declined: z.array(moneyTotalSchema),
  /** Still ACCEPTED: the service has not decided yet. */
  pending: z.array(moneyTotalSchema),
  /** Declined donations with neither a replacement nor a dismissal. */
  declinedOpen: z.number().int().nonnegative(),
  /** None of its donations read since it finished: nothing to compare yet (not a difference). */
  notReadYet: z.boolean(),
  /** submitted = accepted + declined + pending in count and minor units, for every currency. */
  reconciled: z.boolean(),
  /** Why it does not reconcile, in plain words; empty when it does. */
  notes: z.array(z.string()),
});
export type UploadControl = z.infer<typeof uploadControlSchema>;

const countAmountSchema = z.object({ count: z.number().int().nonnegative(), amount: z.number().int() });

/**
 * One currency of the month-end report; every amount in minor units. Every donation of the month is
 * counted once on each side of the control total: in submitted or sentOneByOne, and in exactly one
 * state (pending, inProgress, paid, cleared, declinedResolved, declinedOpen).
 */
export const reportLineSchema = z.object({
  currencyCode: z.string(),
  /**
   * Rows the month's uploads had taken by the service (processed parts, from the ledger). Corrections
   * sent as a bulk file are an upload of their own and are counted here, in the month of that upload.
   */
  submitted: countAmountSchema,
  /**
   * Donations this app created one at a time (POST /donations) during the month: corrections sent one
   * by one and single donations from the form. They belong to no upload.
   */
  sentOneByOne: countAmountSchema,
  /** State ACCEPTED: the service took the donation and has not yet initiated or declined it. */
  pending: countAmountSchema,
  /** INITIATED or IN_PROGRESS. */
  inProgress: countAmountSchema,
  paid: countAmountSchema,
  cleared: countAmountSchema,
  /** Declined, then replaced by a correction or dismissed. */
  declinedResolved: countAmountSchema,
  /**
   * Declined, neither replaced nor dismissed. A declined donation whose correction was sent and got no
   * answer is still open: the correction may or may not exist.
   */
  declinedOpen: countAmountSchema,
  /**
   * Of the donations above, those that correct a declined donation, whether sent in a bulk file or
   * one by one. Already included in submitted or sentOneByOne: information, not part of the sum.
   */
  replacements: countAmountSchema,
  /** Of sentOneByOne, the single donations from the form. Information, not part of the sum. */
  singles: countAmountSchema,
  /** submitted + sentOneByOne = pending + inProgress + paid + cleared + declinedResolved + declinedOpen. */
  reconciled: z.boolean(),
});
export type ReportLine = z.infer<typeof reportLineSchema>;

export const monthReportSchema = z.object({
  month: z.string(),
  environment: z.string(),
  generatedAt: z.string(),
  lastRefreshAt: z.string().nullable(),
  uploads: z.array(uploadControlSchema),
  lines: z.array(reportLineSchema),
  reconciled: z.boolean(),
});
export type MonthReport = z.infer<typeof monthReportSchema>;

const listRequest = z
  .object({
    /**
     * Default: every bulk in the ledger for the current environment. Empty: every donation of the
     * account is read, and those this app made are kept (its bulks', its corrections and single
     * donations) — how a correction whose answer was lost is found.
     */
    bulkIds: z.array(bulkId).max(10_000).optional(),
    status: donationStatusSchema.optional(),
    /** Chosen by the caller so it can cancel with donations.cancel and match job.progress events. */
    jobId: jobId.optional(),
    /** Return what the store holds without asking the service. */
    cached: z.boolean().optional(),
    /** Requested page size (the service may return fewer). */
    pageSize: z.number().int().min(1).max(1000).optional(),
    /**
     * Return at most this many of the listed donations (0: none, only the total); absent: all of
     * them. A caller that shows or writes out a large list reads it page by page.
     */
    limit: z.number().int().min(0).max(1000).optional(),
    /** Skip this many (with `limit`). */
    offset: z.number().int().min(0).optional(),
    /** Continue after this donation (with `limit`): keyset paging, for reading a long list through. */
    after: cursorSchema.optional(),
  })
  .strict();

/**
 * One page of the donations Reconcile shows (the uploads' donations, those sent one by one and the
 * corrections of them), filtered and counted by the database: the screen never holds them all.
 */
const pageRequest = z
  .object({
    /** Absent: every upload; null: only those sent one by one; an id: only that bulk's donations. */
    bulk: bulkId.nullable().optional(),
    status: donationStatusSchema.optional(),
    offset: z.number().int().min(0).max(100_000_000),
    limit: z.number().int().min(1).max(500),
    /** In the order first seen (default), or declined ones still open first (for the declined list). */
    order: z.enum(['firstSeen', 'openFirst']).optional(),
  })
  .strict();

export const donationPageSchema = z.object({
  donations: z.array(donationViewSchema),
  /** How many donations match the filter. */
  total: z.number().int().nonnegative(),
  /** Of those matching the filter with any status, declined ones neither replaced nor dismissed. */
  declinedOpen: z.number().int().nonnegative(),
  /** Bulks of this environment's uploads that have donations (for the upload filter's choices). */
  bulkIds: z.array(z.string()),
  lastRefreshAt: z.string().nullable(),
});

/**
 * Channels of reconciliation: the donations of the uploads, their states over time and the control
 * totals. Spread into `channels` in channels.ts.
 */
export const reconcileChannels = {
  /** Reads every page of the bulks' donations from the service (unless cached), stores them, returns them. */
  'donations.list': { request: listRequest, response: donationListSchema },
  /** One page of the stored donations for the Reconcile screen, with the filter's count; never asks the service. */
  'donations.page': { request: pageRequest, response: donationPageSchema },
  /** Asks the service again about the bulks that still have donations not CLEARED or DECLINED. */
  'donations.refresh': {
    request: z
      .object({
        jobId: jobId.optional(),
        pageSize: z.number().int().min(1).max(1000).optional(),
        /** As for donations.list: at most this many donations in the answer (0: only the total). */
        limit: z.number().int().min(0).max(1000).optional(),
      })
      .strict(),
    response: donationListSchema,
  },
  /** Stops a running donations.list or donations.refresh after the page in flight. */
  'donations.cancel': {
    request: z.object({ jobId }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
  /**
   * Creates a corrected new donation for a declined one (POST /donations): its attributes with the
   * changes applied, the same reference pair (so it ties to the same row), checked by the row rules.
   */
  'donations.correct': {
    request: z
      .object({
        donationId: z.string().min(1).max(200),
        changes: z
          .object({
            recipientId: z.string().max(200).optional(),
            foundationId: z.string().max(200).nullable().optional(),
            currencyCode: z.string().max(3).optional(),
            /** Minor units. */
            amount: z.number().int().optional(),
            /** Replaces the donor as a whole; null removes it. */
            donor: z
              .record(z.string().max(200), z.unknown())
              .refine(
                (donor) => JSON.stringify(donor).length <= 100_000,
                'A donor takes at most 100,000 characters.',
              )
              .nullable()
              .optional(),
            /** Replaces the metadata (the reference pair is kept whatever is given). */
            metadata: z
              .record(z.string().max(200), z.string().max(2_000))
              .refine((pairs) => Object.keys(pairs).length <= 200, 'At most 200 metadata pairs.')
              .optional(),
          })
          .strict(),
        /** Send again after an answer that never came (the earlier attempt may exist at the service). */
        confirmRetry: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ declined: donationViewSchema, replacement: donationViewSchema }),
  },
  /**
   * Puts open declined donations into a new Prepare workspace (one row each, every attribute in its
   * own column, the decline's reasons beside them, the declined id as metadata ddReplaces), to be
   * fixed with the grid's tools and sent together as one bulk file through the usual upload.
   */
  'donations.fixInGrid': {
    request: z.object({ donationIds: z.array(z.string().min(1).max(200)).min(1).max(10_000) }).strict(),
    response: z.object({ workspaceId: z.string(), name: z.string(), rows: z.number().int().nonnegative() }),
  },
  /**
   * Sends the valid rows of a corrections workspace (made by donations.fixInGrid) one by one with
   * POST /donations instead of as a bulk file: each row replaces its declined donation, with the same
   * one-replacement guard and never-twice rules as donations.correct. Rows already replaced are
   * skipped, so it can be run again after a partial failure.
   */
  'donations.correctFromWorkspace': {
    request: z
      .object({
        workspaceId: z.string().regex(/^[a-z0-9-]{8,64}$/, 'Not a workspace id.'),
        jobId: jobId.optional(),
      })
      .strict(),
    response: z.object({
      results: z.array(
        z.object({
          rowKey: z.number().int(),
          rowNumber: z.number().int().nullable(),
          declinedId: z.string(),
          outcome: z.enum(['replaced', 'already-replaced', 'failed', 'invalid']),
          replacementId: z.string().nullable(),
          message: z.string(),
        }),
      ),
    }),
  },
  /**
   * Creates one donation (POST /donations) from the single-donation form, checked by main with the
   * same rules as a row. `clientRef` is chosen by the form once: sending the same form again returns
   * the donation already made, and after an answer that never came it needs confirmRetry.
   */
  'donations.create': {
    request: z
      .object({
        clientRef: z.string().uuid(),
        form: z
          .object({
            fields: z
              .record(z.string().max(200), z.string().max(2_000))
              .refine((fields) => Object.keys(fields).length <= 200, 'At most 200 fields.'),
            metadata: z
              .array(z.object({ key: z.string().max(200), value: z.string().max(2_000) }).strict())
              .max(200),
          })
          .strict(),
        numberStyle: z.enum(['dot-decimal', 'comma-decimal']).optional(),
        confirmRetry: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ donation: donationViewSchema, created: z.boolean() }),
  },
  /** Closes a declined donation without a replacement, with the reason recorded. */
  'donations.dismiss': {
    request: z
      .object({ donationId: z.string().min(1).max(200), reason: z.string().trim().min(3).max(500) })
      .strict(),
    response: donationViewSchema,
  },
  /** The month-end report of the uploads made in a UTC month (YYYY-MM), optionally refreshed first. */
  'donations.report': {
    request: z
      .object({
        month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Give the month as YYYY-MM.'),
        refresh: z.boolean().optional(),
      })
      .strict(),
    response: monthReportSchema,
  },
  /** Totals of the stored donations per status and currency, and control totals per upload. */
  'donations.summary': {
    request: z.object({}).strict(),
    response: z.object({
      byStatus: z.array(statusTotalSchema),
      uploads: z.array(uploadControlSchema),
      lastRefreshAt: z.string().nullable(),
    }),
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;
