/*
 * The upload side's seam to team mode. The engine asks the send gate before a recorded upload is
 * sent, and tells it what happens to uploads and bulks; alone, the local gate (localSendGate.ts)
 * lets everything go and shares nothing. Team mode implements it in team/; the services'
 * composition root chooses which one the upload services get.
 */
import type { LedgerApproval, LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import type { UploadBasics } from './basics';
import type { ReadyRow } from './prepare';

/** What the gate says before an upload's unsent parts go out. */
export type GateVerdict =
  /** Send it now. */
  | 'go'
  /** Not now (an approver has not decided, or the team database cannot be asked): asked again later. */
  | 'wait'
  /** Never: the upload is stopped in the ledger, with the reason. */
  | 'stopped'
  /** Another computer of the team sends it; its bulks are followed from here. */
  | 'elsewhere';

export interface GateAnswer {
  verdict: GateVerdict;
  /** Why it waits, when that is worth telling the person who asked to send it. */
  problem?: string;
}

/** A row already out (or on its way) from another upload of the team. */
export interface SentByColleague {
  uploadId: string;
  sentBy: string;
  computer: string;
  at: string;
}

/** The service an upload goes to, as the duplicate guards key their rows. */
export interface ServiceInUse {
  id: string;
  baseUrl: string;
  emulated: boolean;
}

/** What an upload submitted for approval carries besides its recorded group. */
export interface SubmittedRows {
  rows: readonly ReadyRow[];
  /** The workspace's import warnings, for the approver. */
  warnings: readonly string[];
  /** Invalid rows left out of the upload. */
  leftOut: number;
  /** Fingerprints that may go again though already out elsewhere. */
  confirmed: ReadonlySet<string> | 'all';
  /** How many of the rows were out already and confirmed to go again. */
  alreadyOut: number;
}

/** One new upload on its way through the gate (begun before it is recorded). */
export interface UploadSubmission {
  /** What the ledger records of the upload's approval before anyone else hears of it. */
  approval(partHashes: readonly string[]): LedgerApproval;
  /** The upload could not be recorded, so nothing was sent: the corrections it claimed go back. */
  notRecorded(uploadId: string, claimedDonationIds: readonly string[]): Promise<void>;
  /** Submits the recorded upload; refused (the upload stopped first), it throws a DeskFailure. */
  submit(group: LedgerGroup, rows: SubmittedRows): Promise<LedgerGroup>;
}

export interface SendGate {
  /** Rows of colleagues' uploads among these fingerprints; throws when that cannot be known. */
  sentElsewhere(
    service: ServiceInUse,
    fingerprints: readonly string[],
    exceptUpload?: string,
  ): Promise<Map<string, SentByColleague>>;
  /** A new upload is about to be recorded: its submission, or null when it is sent at once. */
  begin(): UploadSubmission | null;
  /** Right before the unsent parts of an upload recorded with an approval are sent. */
  beforeSend(group: LedgerGroup): Promise<GateAnswer>;
  /**
   * The upload was stopped before any byte of it reached the service (its file was missing or not
   * the one recorded): the gate records that nothing was sent. Best effort, never throws.
   */
  nothingSent(group: LedgerGroup, reason: string): Promise<void>;
  /** An intent was saved (`before` → `next`); best effort, never throws. */
  intentSaved(group: LedgerGroup, before: LedgerIntent, next: LedgerIntent): void;
  /** Whether this computer follows the bulk now (one computer of the team at a time). */
  mayFollow(intent: LedgerIntent): Promise<boolean>;
  /** The bulk ended: this computer no longer follows it. */
  followed(intent: LedgerIntent): void;
  /** The upload's workspace was edited before it was sent: its approval no longer holds. */
  edited(group: LedgerGroup, reason: string): Promise<LedgerGroup>;
  /**
   * Gives back the corrections claimed by uploads that surely created nothing for them (those of
   * `only`, else of every upload); best effort, never throws.
   */
  giveBackClaims(only: readonly string[] | null): Promise<void>;
  /** Uploads this computer is to send and does not have yet become uploads of its ledger. */
  takeOverApproved(): Promise<void>;
  /** The upload to send for `sendApproved`: the ledger's, or taken over now; throws when none. */
  toSend(uploadId: string): Promise<LedgerGroup>;
}

/** What a gate may use of the engine that opened it. */
export interface SendGateHost {
  ctx: UploadBasics;
  /** Follow a bulk from now on (first look at once). */
  follow(intent: LedgerIntent): void;
  /** Resume unfinished uploads again later. */
  scheduleResume(): void;
  /** Run after the starts and resends already queued, alone. */
  serially<T>(work: () => Promise<T>): Promise<T>;
}

/** The gates on offer, chosen once by the services' composition root. */
export interface SendGates {
  /** Whether a gate other than the local one may be in force now. */
  inForce(): boolean;
  /** Whether an upload waits for this computer to send it though its ledger has none yet. */
  anythingToTakeOver(): Promise<boolean>;
  /**
   * The ledger is held by another process: voids the approvals of these uploads straight away
   * (the process that holds the ledger learns it at its next try). Throws at the first refusal.
   */
  voidApprovals(uploadIds: readonly string[], reason: string): Promise<void>;
  /** The gate of one open ledger. */
  open(host: SendGateHost): SendGate;
}
