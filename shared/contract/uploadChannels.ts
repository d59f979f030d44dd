import { z } from 'zod';

const workspaceId = z.string().regex(/^[a-z0-9-]{8,64}$/, 'Not a workspace id.');
const intentId = z.string().min(1).max(200);

export const currencyTotalSchema = z.object({
  currencyCode: z.string(),
  count: z.number().int().nonnegative(),
  /** Sum in minor units. */
  amount: z.number().int(),
});

/** Where an intent stands: the local steps before the service knows it, then the service's own statuses. */
export const intentStateSchema = z.enum([
  'creating',
  'pending',
  'uploading',
  'UPLOADED',
  'VALIDATED',
  'PROCESSING',
  'PROCESSED',
  'ERROR',
  /** Never received a file (creation unconfirmed, address expired, or the app stopped before the upload). */
  'abandoned',
]);
export type IntentState = z.infer<typeof intentStateSchema>;

export const timelineEntrySchema = z.object({
  state: intentStateSchema,
  at: z.string(),
  note: z.string().optional(),
});

export const intentViewSchema = z.object({
  /** The service's bulk intent id, or a local attempt id while the service has not confirmed one. */
  intentId: z.string(),
  serviceId: z.string().nullable(),
  uploadId: z.string(),
  workspaceId: z.string(),
  /** 0-based part of the upload (a large upload is split into several files). */
  part: z.number().int().nonnegative(),
  parts: z.number().int().positive(),
  state: intentStateSchema,
  rows: z.number().int().nonnegative(),
  totals: z.array(currencyTotalSchema),
  fileHash: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  counts: z.object({
    uploaded: z.number().int().optional(),
    accepted: z.number().int().optional(),
    invalid: z.number().int().optional(),
  }),
  /** Rows known to have a donation from this intent (all rows once PROCESSED), null while unknown. */
  donations: z.number().int().nullable(),
  error: z.object({ code: z.string(), title: z.string(), detail: z.string() }).nullable(),
  timeline: z.array(timelineEntrySchema),
  /** The failed intent this one corrects, and the upload that corrected this one. */
  corrects: z.string().nullable(),
  correctedByUpload: z.string().nullable(),
});
export type IntentView = z.infer<typeof intentViewSchema>;

/**
 * sending: some part has no file at the service yet; following: all sent, some not final;
 * waiting-approval (team mode): recorded, built and hashed, not sent until an approver approves it.
 */
export const uploadStateSchema = z.enum([
  'waiting-approval',
  'sending',
  'following',
  'processed',
  'error',
  'stopped',
]);
export type UploadState = z.infer<typeof uploadStateSchema>;

/** Team mode: where the upload's approval stands (null alone, or when the rule asked for none). */
export const uploadApprovalSchema = z.object({
  state: z.enum(['submitting', 'waiting', 'approved', 'rejected', 'void', 'sent']),
  /** The SHA-256 the approval binds to. */
  fileSha256: z.string(),
  preparer: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
  /** Who sends it once approved: the preparer's computer, or the approver's (the team's rule). */
  sender: z.enum(['preparer', 'approver']).default('preparer'),
  /** Sent (or to be sent) from another computer of the team: this one never sends it. */
  sentElsewhere: z
    .object({ by: z.string().nullable(), computer: z.string().nullable() })
    .nullable()
    .default(null),
});
export type UploadApproval = z.infer<typeof uploadApprovalSchema>;

export const uploadViewSchema = z.object({
  uploadId: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
  /** The environment it was sent to (offline, sandbox, production, custom); it is only ever resumed there. */
  environment: z.string(),
  createdAt: z.string(),
  rows: z.number().int().nonnegative(),
  totals: z.array(currencyTotalSchema),
  state: uploadStateSchema,
  stoppedReason: z.string().nullable(),
  approval: uploadApprovalSchema.nullable(),
  corrects: z.string().nullable(),
  intents: z.array(intentViewSchema),
});
export type UploadView = z.infer<typeof uploadViewSchema>;

export const duplicateFlagSchema = z.object({
  rowKey: z.number().int(),
  row: z.number().int().nullable(),
  /** The earlier intent (service id when known) and when it went out. */
  intentId: z.string(),
  sentAt: z.string(),
  /** Team mode, a row another upload of the team holds: whose upload, and from which computer. */
  sentBy: z.string().optional(),
  uploadId: z.string().optional(),
  computer: z.string().optional(),
});

export const uploadIssueSchema = z.object({
  rowKey: z.number().int().nullable(),
  /** The source spreadsheet's row number; null for a file-level error or a row added in the app. */
  row: z.number().int().nullable(),
  column: z.string().nullable(),
  columnIndex: z.number().int().nullable(),
  field: z.string(),
  code: z.string(),
  title: z.string(),
  detail: z.string(),
});
export type UploadIssue = z.infer<typeof uploadIssueSchema>;

export const uploadErrorsSchema = z.object({
  intentId: z.string(),
  status: intentStateSchema,
  form: z.enum(['donations', 'file']),
  issues: z.array(uploadIssueSchema),
  /** Rows of this intent that did get a donation (partial extraction); they are never sent again. */
  rowsWithDonation: z.number().int().nonnegative(),
});
export type UploadErrors = z.infer<typeof uploadErrorsSchema>;

/**
 * Channels of the upload, follow and repair flow (bulk intents, ledger, error files).
 * Spread into `channels` in channels.ts.
 */
export const uploadChannels = {
  /** Re-validates the workspace and says what an upload would send: counts, totals, duplicate-guard flags. */
  'upload.preview': {
    request: z
      .object({
        workspaceId,
        /** Preview the resend of this failed intent: only its rows without a donation. */
        resendIntentId: intentId.optional(),
      })
      .strict(),
    response: z.object({
      rows: z.number().int().nonnegative(),
      valid: z.number().int().nonnegative(),
      invalid: z.number().int().nonnegative(),
      totals: z.array(currencyTotalSchema),
      duplicates: z.array(duplicateFlagSchema),
      /** How many files (intents) the upload would be split into. */
      parts: z.number().int().nonnegative(),
      mappingProblems: z.array(z.string()),
      /** Ready rows that correct a declined donation (metadata ddReplaces): these may also go one by one. */
      replacements: z.number().int().nonnegative(),
      /**
       * What "send only the new rows" (skipDuplicates) would send: the ready rows never sent before,
       * their totals and files. Null when no row was sent before.
       */
      onlyNew: z
        .object({
          valid: z.number().int().nonnegative(),
          totals: z.array(currencyTotalSchema),
          parts: z.number().int().nonnegative(),
        })
        .nullable(),
    }),
  },
  /** Validates, builds, compresses and sends the workspace's valid rows; resolves once every file is at the service. */
  'upload.start': {
    request: z
      .object({
        workspaceId,
        /** Send rows the duplicate guard flagged: all of them, or these row keys. */
        confirmDuplicates: z.union([z.literal('all'), z.array(z.number().int()).max(1_000_000)]).optional(),
        /** Send only the rows never sent before: every flagged row stays out (nothing goes twice). */
        skipDuplicates: z.boolean().optional(),
        /** Leave out rows with errors instead of refusing the upload. */
        skipInvalid: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ uploadId: z.string(), upload: uploadViewSchema, problems: z.array(z.string()) }),
  },
  'upload.list': { request: z.object({}).strict(), response: z.array(uploadViewSchema) },
  'upload.get': { request: z.object({ intentId }).strict(), response: intentViewSchema },
  /** Asks the service now instead of waiting for the next poll. */
  'upload.refresh': { request: z.object({ intentId }).strict(), response: intentViewSchema },
  /** The error file of an intent in ERROR, each error mapped to its row and cell. */
  'upload.errors': { request: z.object({ intentId }).strict(), response: uploadErrorsSchema },
  /** Re-validates and sends, as a new upload linked to the failed intent, only its rows that have no donation. */
  'upload.resend': {
    request: z.object({ intentId, skipInvalid: z.boolean().optional() }).strict(),
    response: z.object({ uploadId: z.string(), upload: uploadViewSchema, problems: z.array(z.string()) }),
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;
