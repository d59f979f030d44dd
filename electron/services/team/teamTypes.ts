import type pg from 'pg';
/*
 * Team mode: what the shared PostgreSQL database offers the rest of the app. One implementation
 * (teamDatabase.ts, over `pg`); the database itself enforces who may do what (roles, grants,
 * triggers), so every method may fail with a refusal that comes from the server, never from here.
 *
 * Alone (no DONATION_DESK_DATABASE_URL and no team database in Settings) there is no TeamDatabase
 * at all and everything works as before on the data folder's SQLite database.
 */
import type { NewAuditEntry } from '../audit/auditStore';
import type { SharedAuditTrail } from '../audit/auditSharing';
import type {
  NewSharedBulk as NewTeamBulk,
  SharedBulk as TeamBulk,
  SharedBulkState as TeamBulkState,
  SharedOneByOne as TeamOneByOne,
} from '../reconcile/ledgerSharing';

export type TeamRole = 'desk_preparer' | 'desk_approver' | 'desk_admin';

/** Who the server says is connected: `current_user` and the desk roles it holds. */
export interface TeamWho {
  login: string;
  roles: TeamRole[];
  /** host:port/database, never the password. */
  server: string;
}

/**
 * The team's approval policy ("the team's rule" to its people; not a donation rule), kept in the database (one row, changed by desk_admin only):
 * - approval 'always': every upload waits for an approver;
 * - 'above': only uploads whose total in some currency exceeds its threshold (minor units);
 * - 'never': uploads go out at once (the shared duplicate guard and audit still apply).
 */
export interface TeamApprovalPolicy {
  approval: 'always' | 'above' | 'never';
  /** Currency code → threshold in minor units, for 'above'. */
  thresholds: Record<string, number>;
  /**
   * Who sends an upload once it is approved: its preparer's computer (the default), or the computer
   * of the approver who approved it (the preparer's computer stores the exact file with the
   * submission). Left out when setting the rule: unchanged. An upload no one had to approve is
   * always sent by its preparer.
   */
  sender?: TeamSender;
}

/** The former name of TeamApprovalPolicy, kept until the last team/ importers move over. */
export type TeamRule = TeamApprovalPolicy;

export type TeamSender = 'preparer' | 'approver';

export type TeamUploadState = 'waiting' | 'approved' | 'rejected' | 'void' | 'sent';

export interface CurrencyTotal {
  currencyCode: string;
  /** Minor units. */
  amount: number;
  count: number;
}

/** What an approver is shown, worked out by the preparer's app when the upload is submitted. */
export interface ReviewFacts {
  /** YYYY-MM of the upload (for "the same month last time"). */
  month: string;
  largestRecipients: Array<{ recipientId: string; currencyCode: string; amount: number; count: number }>;
  /** Rows the shared guard knew as already out and the preparer confirmed to send again. */
  alreadyOut: number;
  warnings: string[];
}

export interface NewTeamUpload {
  /** The local ledger group id (a UUID), the same on every computer. */
  id: string;
  workspaceName: string;
  environment: string;
  /** Environment id plus address (see environmentKey in the shared guard); rows are unique per key. */
  environmentKey: string;
  computer: string;
  /** SHA-256 (hex) of the exact bulk file: one part, its gzip file; several, of their hashes joined by '\n'. */
  fileSha256: string;
  rows: number;
  totals: CurrencyTotal[];
  review: ReviewFacts;
}

export interface TeamUpload extends NewTeamUpload {
  /** The login that submitted it (set by the database from current_user). */
  preparer: string;
  state: TeamUploadState;
  createdAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  reason: string | null;
  sentBy: string | null;
  sentAt: string | null;
  /** Who sends it, as the team's rule said when it was submitted. */
  sender: TeamSender;
  /** The computer that sent it (with sentBy). */
  sentFrom: string | null;
}

/** One gzip part file of an upload the approver sends, as stored by its preparer's computer. */
export interface TeamUploadFile {
  part: number;
  bytes: Buffer;
  /** SHA-256 (hex) worked out by the database from the bytes. */
  sha256: string;
}

/** A row already out (or waiting to go out) from another upload, as the shared guard knows it. */
export interface SentElsewhere {
  fingerprint: string;
  uploadId: string;
  sentBy: string;
  computer: string;
  at: string;
}

/** Who is correcting a declined donation (or has), as the team database keeps it. */
export interface CorrectionHolder {
  donationId: string;
  /** The login that claimed it. */
  by: string;
  computer: string;
  /** When it was claimed (ISO). */
  since: string;
  how: 'single' | 'upload';
  uploadId: string | null;
  state: 'in-progress' | 'done' | 'abandoned';
  replacementId: string | null;
}

/** A correction sent on its own, or as a row of an upload (with the upload's id). */
// The shared ledger's records are defined by Reconcile, which reads them through its ledger sharing.
export type { TeamBulkState, NewTeamBulk, TeamBulk, TeamOneByOne };

/** A declined donation dismissed for the whole team (it is never corrected afterwards). */
export interface TeamDismissal {
  donationId: string;
  reason: string;
  by: string;
  computer: string;
  at: string;
}

export type CorrectionWay = { how: 'single' } | { how: 'upload'; uploadId: string };

/** The team's trail: read as audit/ reads any shared trail, plus the copy of local entries into it. */
export interface TeamAudit extends SharedAuditTrail {
  /**
   * Copies local entries to the team trail; idempotent per (origin, originSeq): an entry already
   * there with the same content is this computer's own earlier copy; one with other content is a
   * conflict, refused (TEAM_TRAIL_CONFLICT) and never skipped. Person = the login.
   */
  push(origin: string, entries: Array<NewAuditEntry & { originSeq: number }>): Promise<number>;
  /** Recomputes the team trail's chain of seals (desk.verify_audit). */
  verify(): Promise<TeamTrailCheck>;
}

/** Whether the team's trail is whole: every entry matches its seal and follows the one before. */
export interface TeamTrailCheck {
  trail: 'team';
  whole: boolean;
  entries: number;
  firstBroken?: { seq: number; at?: string; reason: string };
}

export interface TeamDatabase {
  readonly server: string;
  /** A new connection outside the pool (same address and TLS) to listen for the team's news on. */
  newsClient?(): pg.Client;
  who(): Promise<TeamWho>;
  rule(): Promise<TeamApprovalPolicy>;
  setRule(rule: TeamApprovalPolicy): Promise<void>;
  /** Whether an upload with these totals needs approval under the rule now in force. */
  needsApproval(totals: readonly CurrencyTotal[]): Promise<boolean>;
  /**
   * Claims the rows for `uploadId` in the shared guard, in one transaction: refused (returned, nothing
   * claimed) when any fingerprint not in `confirmed` is already claimed by another live upload.
   */
  claimRows(
    uploadId: string,
    environmentKey: string,
    fingerprints: readonly string[],
    confirmed?: ReadonlySet<string> | 'all',
  ): Promise<SentElsewhere[]>;
  /** Rows already claimed by live uploads other than `exceptUpload`, by fingerprint. */
  sentElsewhere(
    environmentKey: string,
    fingerprints: readonly string[],
    exceptUpload?: string,
  ): Promise<Map<string, SentElsewhere>>;
  /**
   * Records an upload before anything is sent (its rows claimed first, same upload id). The database
   * applies the team's rule itself: the upload starts 'waiting' when the rule asks for approval, else
   * 'approved' (decidedBy null), so a client cannot skip approval by saying none is needed.
   */
  submit(upload: NewTeamUpload): Promise<TeamUpload>;
  /** Approve or reject; the database refuses the preparer, a non-approver, a stale SHA-256, a decided upload. */
  decide(
    uploadId: string,
    decision: 'approve' | 'reject',
    fileSha256: string,
    reason: string | null,
  ): Promise<TeamUpload>;
  /** An edit after submission: the approval (given or not) no longer holds; its rows are released. */
  voidUpload(uploadId: string, reason: string): Promise<TeamUpload | null>;
  /**
   * Before sending: refused unless approved for exactly this file (or no approval was needed), and
   * unless this login is the one to send it (the preparer, or the approver who approved it when the
   * rule said the approver sends). Already sent: answered to the login and computer that sent it,
   * refused (DD011, "sent by bob from bob-laptop") to anyone else.
   */
  markSent(uploadId: string, fileSha256: string): Promise<TeamUpload>;
  /**
   * The send this login and computer marked stopped before any byte reached the service (the file
   * to send was not the approved one, or could not be read): recorded as not sent with the reason;
   * the upload ends void and its rows are given back, once. Refused once a bulk of it was recorded.
   */
  unmarkSent(uploadId: string, reason: string): Promise<TeamUpload>;
  /**
   * The preparer stores each gzip part file with the submission, whoever sends it (the database
   * hashes it; a part stored already with other bytes is refused). Answers the part's SHA-256.
   */
  storeUploadFile(uploadId: string, part: number, bytes: Uint8Array): Promise<string>;
  /** The parts stored for an upload (its preparer, approvers and desk admins may read them). */
  fetchUploadFile(uploadId: string): Promise<TeamUploadFile[]>;
  /** Approved (or sent) uploads this login approved and is to send, oldest first. */
  uploadsToSend(): Promise<TeamUpload[]>;
  /** The bulks recorded for one upload (by the computer that sent it), in part order. */
  uploadBulks(uploadId: string): Promise<TeamBulk[]>;
  /**
   * A sent upload's bulk that the service refused (wholly, or some rows): gives back the claims of
   * the rows that got no donation, so they are no longer "already sent" for the team. Preparer only.
   */
  releaseRows(uploadId: string, fingerprints: readonly string[]): Promise<number>;
  upload(uploadId: string): Promise<TeamUpload | null>;
  uploads(filter?: { state?: TeamUploadState }): Promise<TeamUpload[]>;
  /** Totals sent in `environment` during `month` (YYYY-MM), for "the change from last time". */
  monthTotals(environment: string, month: string): Promise<CurrencyTotal[]>;
  /** A lease so one upload is followed by one computer at a time: true if `holder` has it now. */
  lease(key: string, holder: string, ttlMs: number): Promise<boolean>;
  releaseLease(key: string, holder: string): Promise<void>;
  /**
   * Claims the correction of a declined donation before its replacement is created: granted unless
   * another login's claim is in progress or done (then `holder` is theirs and nothing was claimed).
   * The caller's own claim in progress may be claimed again (a retry); an abandoned one by anyone.
   */
  claimCorrection(
    environmentKey: string,
    donationId: string,
    way: CorrectionWay,
  ): Promise<{ granted: boolean; holder: CorrectionHolder }>;
  /** The claimer's replacement was recorded: the declined donation is replaced for the team. */
  finishCorrection(
    environmentKey: string,
    donationId: string,
    replacementId: string,
  ): Promise<CorrectionHolder>;
  /** Nothing was created: the claim is given back (by the claimer, or a desk admin). */
  abandonCorrection(environmentKey: string, donationId: string): Promise<CorrectionHolder>;
  /**
   * Of these uploads, the corrections this login still holds in progress for them (an upload's end
   * decides whether each is given back, see giveBackUploadCorrections).
   */
  uploadCorrections(uploadIds: readonly string[]): Promise<Array<{ uploadId: string; donationId: string }>>;
  /**
   * Gives back this login's claims in progress on these declined donations that are still held for
   * `uploadId` (a claim taken since for another upload or on its own is left alone); returns the
   * donation ids given back. Idempotent: for an upload whose rows surely created nothing.
   */
  giveBackUploadCorrections(uploadId: string, donationIds: readonly string[]): Promise<string[]>;
  /** Corrections in progress in this environment, oldest first (for a desk admin's look at stale ones). */
  correctionsInProgress(environmentKey: string): Promise<CorrectionHolder[]>;
  /**
   * Corrections in progress or done, by donation id, except this computer's own under this login
   * (those the local store knows already).
   */
  corrections(environmentKey: string, donationIds: readonly string[]): Promise<Map<string, CorrectionHolder>>;
  /**
   * The shared ledger: records (or brings up to date) a bulk of a sent upload. Only the login that
   * sent the upload (or a desk admin) may; what was sent never changes, only its state and takings.
   */
  publishBulk(bulk: NewTeamBulk): Promise<void>;
  /** Every bulk the team's uploads created at this service, oldest first. */
  teamBulks(environmentKey: string): Promise<TeamBulk[]>;
  /** The shared ledger: a donation sent one by one from this computer (recorded once). */
  publishOne(
    environmentKey: string,
    donationId: string,
    kind: TeamOneByOne['kind'],
    sentAt: string,
  ): Promise<void>;
  /** Every donation the team sent one by one at this service, oldest first. */
  sentOneByOne(environmentKey: string): Promise<TeamOneByOne[]>;
  /**
   * Dismisses a declined donation for the team; refused (TEAM_REFUSED, DD010) while someone is
   * correcting it or has replaced it. Dismissing one already dismissed answers the first dismissal.
   */
  dismiss(environmentKey: string, donationId: string, reason: string): Promise<TeamDismissal>;
  /** Dismissals among these declined donations, by donation id. */
  dismissals(environmentKey: string, donationIds: readonly string[]): Promise<Map<string, TeamDismissal>>;
  readonly audit: TeamAudit;
  close(): Promise<void>;
}
