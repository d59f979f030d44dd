import { z } from 'zod';

/*
 * Team mode channels: the shared PostgreSQL database, who the server says is connected, and the
 * maker-checker approvals. Alone, team.status says so and approvals.list is empty.
 */

const currencyTotalSchema = z.object({
  currencyCode: z.string(),
  /** Minor units. */
  amount: z.number().int(),
  count: z.number().int().nonnegative(),
});

/** The sslmode values an address may carry (what each means here: electron/services/team/teamTls.ts). */
export const TEAM_SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;

/** What is wrong with an sslmode value, in plain words; null when it is one of TEAM_SSL_MODES. */
export function sslModeProblem(mode: string): string | null {
  if ((TEAM_SSL_MODES as readonly string[]).includes(mode)) return null;
  if (mode === 'no-verify') {
    return 'sslmode=no-verify is not accepted: it would encrypt without checking who answers. Use sslmode=verify-full with the team’s CA file as sslrootcert=… (ask your admin for it).';
  }
  return `sslmode=${mode} is not one Donation Desk knows: use sslmode=verify-full (or require, verify-ca, disable).`;
}

/** What is wrong with an address's sslmode or sslrootcert, in plain words; null when nothing is. */
export function tlsParameterProblem(address: string): string | null {
  let params: URLSearchParams;
  try {
    params = new URL(address.trim()).searchParams;
  } catch {
    return null;
  }
  const mode = params.get('sslmode')?.trim().toLowerCase();
  const modeProblem = mode ? sslModeProblem(mode) : null;
  if (modeProblem) return modeProblem;
  const rootCert = params.get('sslrootcert')?.trim();
  // A full path on any system: /…, ~/…, C:\… or C:/…, \\server\share\….
  if (rootCert && rootCert.toLowerCase() !== 'system' && !/^(\/|~\/|[A-Za-z]:[\\/]|\\\\)/.test(rootCert)) {
    return `The CA file given as sslrootcert (${rootCert}) must be a full path, such as /home/you/team-ca.crt.`;
  }
  return null;
}

/**
 * A PostgreSQL address as a person types it: postgres://login@host:5432/database, with
 * ?sslmode=verify-full&sslrootcert=/path/to/team-ca.crt for TLS. A password typed into it is taken
 * out by main and kept like a client secret; it is never sent back.
 */
export const teamAddressSchema = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .regex(
    /^postgres(ql)?:\/\//i,
    'Enter an address starting with postgres://, such as postgres://alice@db.example.com:5432/desk',
  )
  .superRefine((address, ctx) => {
    const problem = tlsParameterProblem(address);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** What the renderer may see of the team database setting: never the password. */
export const teamDatabaseSettingsSchema = z.object({
  /** The address saved in Settings, without its password; empty when none is saved. */
  address: z.string(),
  /** host:port/database of the address in force (environment or Settings); null when working alone. */
  server: z.string().nullable(),
  /** Whether a password is kept for the saved address. */
  passwordStored: z.boolean(),
  /** Where the address in force comes from: DONATION_DESK_DATABASE_URL wins over Settings. */
  source: z.enum(['none', 'settings', 'environment']),
  /** How the password is kept on this computer, in plain words. */
  passwordNote: z.string(),
});
export type TeamDatabaseSettings = z.infer<typeof teamDatabaseSettingsSchema>;

/** Settings → Team database: an address (a password typed in it or beside it), or null to work alone. */
export const teamDatabaseUpdateSchema = z
  .object({
    address: teamAddressSchema,
    /** A new password; left out keeps the stored one (for the same address), empty forgets it. */
    password: z.string().max(500).optional(),
  })
  .strict()
  .nullable();
export type TeamDatabaseUpdate = z.infer<typeof teamDatabaseUpdateSchema>;

export const teamStatusSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('alone') }),
  z.object({
    mode: z.literal('team'),
    /** host:port/database; never the password. */
    server: z.string(),
    /** Where the address came from: the DONATION_DESK_DATABASE_URL variable wins over Settings. */
    source: z.enum(['environment', 'settings']),
    reachable: z.boolean(),
    /** current_user, when reachable. */
    login: z.string().nullable(),
    roles: z.array(z.enum(['desk_preparer', 'desk_approver', 'desk_admin'])),
    /** What went wrong, in plain words, when not reachable. */
    problem: z.string().nullable(),
    rule: z
      .object({
        approval: z.enum(['always', 'above', 'never']),
        thresholds: z.record(z.string(), z.number().int().nonnegative()),
        /** Who sends an approved upload: its preparer's computer or the approver's (absent: preparer). */
        sender: z.enum(['preparer', 'approver']).optional(),
      })
      .nullable(),
    /** Whether the server is on this computer (loopback or a socket): plaintext there crosses no network. */
    local: z.boolean(),
    /**
     * Whether this computer's connection is encrypted, as the server reports it (pg_stat_ssl), and
     * with which protocol (TLSv1.3); null when it could not be asked (unreachable).
     */
    encryption: z.object({ encrypted: z.boolean(), protocol: z.string().nullable() }).nullable(),
  }),
]);
export type TeamStatus = z.infer<typeof teamStatusSchema>;

export const approvalStateSchema = z.enum(['waiting', 'approved', 'rejected', 'void', 'sent']);

export const approvalSummarySchema = z.object({
  uploadId: z.string(),
  workspaceName: z.string(),
  environment: z.string(),
  preparer: z.string(),
  computer: z.string(),
  createdAt: z.string(),
  state: approvalStateSchema,
  rows: z.number().int().nonnegative(),
  totals: z.array(currencyTotalSchema),
  fileSha256: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
  /** Who sends it once approved (the team's rule when it was submitted). */
  sender: z.enum(['preparer', 'approver']).default('preparer'),
  sentBy: z.string().nullable().default(null),
  sentFrom: z.string().nullable().default(null),
});
export type ApprovalSummary = z.infer<typeof approvalSummarySchema>;

/** One row of an upload's file, as the approver's computer read it from the parts stored. */
export const fileRowSchema = z.object({
  /** Position in the file, from 1 (parts one after the other). */
  row: z.number().int().positive(),
  recipientId: z.string(),
  /** The cause's name where this computer knows it; null: only the id is known. */
  causeName: z.string().nullable(),
  /** The donor's name (or e-mail address when there is no name); '' when the row has neither. */
  donor: z.string(),
  amount: z.number().int(),
  currencyCode: z.string(),
  /** The row's warnings and errors, as the Prepare screen words them. */
  warnings: z.array(z.string()),
  /** Already sent by the team: who sent it ("alice from alice-laptop"); null when not. */
  sentBy: z.string().nullable(),
});
export type FileRow = z.infer<typeof fileRowSchema>;

/**
 * What the approver's computer computed from the upload's file, fetched from the team database and
 * checked against its SHA-256: or, when it could not, why (approval is then blocked).
 */
export const fileReviewSchema = z.discriminatedUnion('checked', [
  z.object({ checked: z.literal(false), problem: z.string() }),
  z.object({
    checked: z.literal(true),
    rows: z.array(fileRowSchema),
    totals: z.array(currencyTotalSchema),
    largestRecipients: z.array(
      z.object({
        recipientId: z.string(),
        currencyCode: z.string(),
        amount: z.number().int(),
        count: z.number().int().nonnegative(),
      }),
    ),
    /** What the rows' warnings come to, one sentence per kind. */
    warnings: z.array(z.string()),
    /** Rows the team already sent (or is sending) in another upload. */
    alreadySent: z.number().int().nonnegative(),
    /** Each way the file differs from what the preparer's app declared; any blocks approval. */
    differences: z.array(z.string()),
  }),
]);
export type FileReview = z.infer<typeof fileReviewSchema>;

export const approvalReviewSchema = approvalSummarySchema.extend({
  largestRecipients: z.array(
    z.object({
      recipientId: z.string(),
      currencyCode: z.string(),
      amount: z.number().int(),
      count: z.number().int().nonnegative(),
    }),
  ),
  /** What the team sent in the same environment the month before this upload's month. */
  previousMonth: z.object({ month: z.string(), totals: z.array(currencyTotalSchema) }),
  /** Rows the shared guard knew as already out, confirmed by the preparer to go again. */
  alreadyOut: z.number().int().nonnegative(),
  warnings: z.array(z.string()),
  /** The file itself, as this computer read it (the figures above are the preparer's declaration). */
  file: fileReviewSchema,
  /** Why the file blocks approval (not rejection): it differs from the declaration or cannot be checked. */
  approvalBlocked: z.string().nullable(),
  /** Whether the person connected may decide, and if not, why (the database decides in the end). */
  canDecide: z.boolean(),
  whyNot: z.string().nullable(),
});
export type ApprovalReview = z.infer<typeof approvalReviewSchema>;

export const teamChannels = {
  /** Alone or as a team; for a team, the server, who is connected and their roles. */
  'team.status': { request: z.object({}).strict(), response: teamStatusSchema },
  /**
   * Tries an address (or the one in force when none is given) without saving or switching anything.
   * A password left out means the one stored for the team database, as Settings' client secret does.
   */
  'team.test': {
    request: z
      .object({
        address: teamAddressSchema.optional(),
        password: z.string().max(500).optional(),
      })
      .strict(),
    response: z.object({
      ok: z.boolean(),
      server: z.string(),
      login: z.string().nullable(),
      roles: z.array(z.string()),
      message: z.string(),
    }),
  },
  /** Uploads the team has submitted, newest first; `waiting` only by default. */
  'approvals.list': {
    request: z.object({ state: z.enum(['waiting', 'all']).optional() }).strict(),
    response: z.object({ approvals: z.array(approvalSummarySchema) }),
  },
  'approvals.review': {
    request: z.object({ uploadId: z.string().min(1).max(200) }).strict(),
    response: approvalReviewSchema,
  },
  /** Approve or reject exactly the file reviewed (its SHA-256); a reason is required to reject. */
  'approvals.decide': {
    request: z
      .object({
        uploadId: z.string().min(1).max(200),
        decision: z.enum(['approve', 'reject']),
        fileSha256: z.string().regex(/^[0-9a-f]{64}$/),
        reason: z.string().trim().max(2000).optional(),
      })
      .strict(),
    /**
     * When the approver sends (the upload's sender), approving also sends it from this computer:
     * `sending` says what became of that (null when nothing was sent from here).
     */
    response: approvalSummarySchema.extend({
      sending: z
        .object({ state: z.string(), problems: z.array(z.string()) })
        .nullable()
        .default(null),
    }),
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;
