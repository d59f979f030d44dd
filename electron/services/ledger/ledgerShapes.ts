import { z } from 'zod';
import {
  currencyTotalSchema,
  intentStateSchema,
  timelineEntrySchema,
} from '../../../shared/contract/uploadChannels';

/** One file of an upload: which rows it holds, their fingerprints, and the gzip's hash. */
export const ledgerPartSchema = z.object({
  index: z.number().int().nonnegative(),
  rowKeys: z.array(z.number().int()),
  rowNumbers: z.array(z.number().int().nullable()),
  /** Content fingerprints (reference pair left out), one per row, for the duplicate guard. */
  fingerprints: z.array(z.string()),
  totals: z.array(currencyTotalSchema),
  /** sha256 of the .gz as uploaded, hex. */
  fileHash: z.string(),
  fileBytes: z.number().int().nonnegative(),
  /** The .gz beside the ledger, relative to the ledger folder, kept so a restart can send it. */
  file: z.string(),
});
export type LedgerPart = z.infer<typeof ledgerPartSchema>;

export const ledgerApprovalSchema = z.object({
  /** host:port/database of the team database it was submitted to. */
  server: z.string(),
  /** The bulk file's SHA-256 the approval binds to (see bulkFileSha256). */
  fileSha256: z.string(),
  /** Whether the team's rule asked for an approval when it was submitted. */
  needed: z.boolean(),
  /** 'submitting' until the database has recorded it. */
  state: z.enum(['submitting', 'waiting', 'approved', 'rejected', 'void', 'sent']),
  preparer: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
  /** Who sends it, as the team's rule said at submission (absent in records before the choice). */
  sender: z.enum(['preparer', 'approver']).optional(),
  /**
   * Whether this computer sends it: false on the preparer's computer when the approver sends it (or
   * another computer already did), so it is never sent from here; absent means true.
   */
  sendsHere: z.boolean().optional(),
  /** Who sent it and from which computer, once the team database says it was sent. */
  sentBy: z.string().nullable().optional(),
  sentFrom: z.string().nullable().optional(),
});
export type LedgerApproval = z.infer<typeof ledgerApprovalSchema>;

/** An upload: one press of "Upload" (or one "send corrected"), split into parts. Written once, then only stopped. */
export const ledgerGroupSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
  createdAt: z.string(),
  /** Where it went: the environment and service address, so a restart never sends it elsewhere. */
  environment: z.string(),
  baseUrl: z.string(),
  referenceKey: z.string().nullable(),
  parts: z.array(ledgerPartSchema),
  /** The failed intent (service id) this upload corrects. */
  corrects: z.string().nullable(),
  /**
   * Rows that correct a declined donation (metadata ddReplaces): the ledger's link from each declined
   * donation to the row, and so to the donation, that replaces it. Empty for ordinary uploads.
   */
  replaces: z.array(z.object({ rowKey: z.number().int(), donationId: z.string() })).default([]),
  /** Set when sending gave up for good (the upload host refused the file); a restart does not retry it. */
  stopped: z.object({ at: z.string(), reason: z.string() }).nullable(),
  /**
   * Team mode: the upload as submitted to the team database, and where its approval stood when this
   * computer last asked. Null alone (and in every ledger written before team mode). No part is sent
   * until the database accepts `markSent` for `fileSha256`.
   */
  approval: ledgerApprovalSchema.nullable().default(null),
});
/** `approval` may be missing in records written before team mode (they are read without parsing). */
export type LedgerGroup = Omit<z.infer<typeof ledgerGroupSchema>, 'approval'> & {
  approval?: LedgerApproval | null;
};

/**
 * A part as readers that never match rows see it (Reconcile's pages, totals and report): without
 * the per-row arrays (a few MB per 100,000 rows), except, for an upload that replaces declined
 * donations, the keys of those rows that this part holds.
 */
export type LedgerPartSummary = Omit<LedgerPart, 'rowKeys' | 'rowNumbers' | 'fingerprints'> &
  Partial<Pick<LedgerPart, 'rowKeys' | 'rowNumbers' | 'fingerprints'>> & { replacedRowKeys?: number[] };
export type LedgerGroupSummary = Omit<LedgerGroup, 'parts'> & { parts: LedgerPartSummary[] };

/** One bulk intent attempt for a part, from "about to ask for one" to PROCESSED or ERROR. */
export const ledgerIntentSchema = z.object({
  /** Local id, recorded before the service is asked, so an attempt that never got an answer is known. */
  attemptId: z.string(),
  serviceId: z.string().nullable(),
  groupId: z.string(),
  part: z.number().int().nonnegative(),
  state: intentStateSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string().nullable(),
  timeline: z.array(timelineEntrySchema),
  counts: z.object({
    uploaded: z.number().int().optional(),
    accepted: z.number().int().optional(),
    invalid: z.number().int().optional(),
  }),
  error: z.object({ code: z.string(), title: z.string(), detail: z.string() }).nullable(),
  /** Row keys of the part that have a donation from this intent; null while unknown. PROCESSED means all. */
  donationRowKeys: z.array(z.number().int()).nullable(),
  correctedByUpload: z.string().nullable(),
});
export type LedgerIntent = z.infer<typeof ledgerIntentSchema>;

export const journalLineSchema = z.discriminatedUnion('k', [
  z.object({ k: z.literal('g'), v: ledgerGroupSchema }),
  z.object({ k: z.literal('i'), v: ledgerIntentSchema }),
]);
export type JournalLine = z.infer<typeof journalLineSchema>;

export const snapshotSchema = z.object({
  version: z.literal(1),
  groups: z.array(ledgerGroupSchema),
  intents: z.array(ledgerIntentSchema),
});

/** States after which an intent holds a file at the service (or its outcome). */
export const SENT_STATES = new Set(['UPLOADED', 'VALIDATED', 'PROCESSING', 'PROCESSED', 'ERROR'] as const);
export const FINAL_STATES = new Set(['PROCESSED', 'ERROR', 'abandoned'] as const);
