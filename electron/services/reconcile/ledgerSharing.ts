/*
 * What Reconcile shares with colleagues' computers, and reads of theirs: the bulks and donations each
 * computer sent, the corrections of declined donations claimed before a replacement is created, and
 * dismissals. Reconcile asks for all of it through this interface only; working alone
 * (localLedgerSharing) nothing is shared and nothing changes. The team implementation lives with the
 * team database; the services' composition root chooses.
 */
import type { DonationView } from '../../../shared/contract/reconcileChannels';
import type { LedgerGroupSummary } from '../ledger/ledgerShapes';
import type { LedgerSummaryView } from './ledgerView';
import type { Money, PartialTotals } from './partialTotals';

/** The bulk states a sent upload's part goes through at the service. */
export type SharedBulkState = 'UPLOADED' | 'VALIDATED' | 'PROCESSING' | 'PROCESSED' | 'ERROR';

/** A bulk an upload created at the service, as the computer that sent it last recorded it. */
export interface NewSharedBulk {
  environmentKey: string;
  bulkId: string;
  uploadId: string;
  part: number;
  /** When the upload was made on the sending computer (its ledger's createdAt): its month. */
  uploadCreatedAt: string;
  /** The part's rows per currency, as sent. */
  partTotals: Money[];
  state: SharedBulkState;
  /** The rows that got a donation, per currency; null while not known (a null never clears it). */
  takenTotals: Money[] | null;
}

/** A bulk of a colleague's (or this computer's) upload, with who sent it from where. */
export interface SharedBulk extends NewSharedBulk {
  workspaceName: string;
  sentBy: string;
  computer: string;
  updatedAt: string;
}

/** A donation sent one by one (a single donation from the form, or a correction) by someone of the team. */
export interface SharedOneByOne {
  donationId: string;
  kind: 'single' | 'replaces';
  /** When the service answered: the month it counts in. */
  sentAt: string;
  sentBy: string;
  computer: string;
}

/** Who sent an upload that came from another computer (absent: sent from this one). */
export interface SentElsewhereBy {
  by: string;
  computer: string;
}

/** An upload of the ledger, marked when a colleague sent it from another computer. */
export type SharedGroupSummary = LedgerGroupSummary & { sentElsewhere?: SentElsewhereBy };

/** Who sent an upload, when another computer of the team did. */
export function sentElsewhere(group: LedgerGroupSummary): SentElsewhereBy | null {
  return (group as SharedGroupSummary).sentElsewhere ?? null;
}

/** A colleague's correction of a declined donation, as the screens show it. */
export type CorrectionElsewhere = NonNullable<DonationView['correctionElsewhere']>;

/** What correctDeclined asks of the team: claim first, then finish or give back. */
export interface CorrectionGuard {
  /** Throws CORRECTION_ELSEWHERE when another person holds the correction. */
  claim(donationId: string): Promise<void>;
  finish(donationId: string, replacementId: string): Promise<void>;
  abandon(donationId: string): Promise<void>;
}

/** This computer's own bulks, read only when something is to be published. */
export interface OurBulks {
  local: LedgerSummaryView;
  environment: string;
  /** What this computer's bulks that ended in ERROR part-way took (worked out from the kept files). */
  partials(): Promise<Map<string, PartialTotals>>;
}

/** A donation this computer sent one by one, with when it counts from. */
export interface OwnOneByOne {
  id: string;
  firstSeenAt: string;
  kind: 'single' | 'replaces';
}

/** Declined donations colleagues closed: replaced from another computer, or dismissed for the team. */
export interface ClosedElsewhere {
  replaced: Array<{ donationId: string; replacementId: string; by: string }>;
  dismissed: Array<{ donationId: string; at: string; reason: string; by: string }>;
}

/** A dismissal as the team keeps it; `by` is set when a colleague dismissed it first. */
export interface SharedDismissal {
  at: string;
  reason: string;
  by: string | null;
}

export interface LedgerSharing {
  /**
   * Colleagues' bulks at the service in force, read again after a while or when `fresh`; with the
   * team out of reach, the last answer. Null: nothing shared (alone, or the Offline sandbox).
   */
  colleaguesBulks(fresh?: boolean): Promise<{ server: string; bulks: SharedBulk[] } | null>;
  /** Writes this computer's bulks where the team's record is behind (best effort; `ours` read only if needed). */
  publishBulks(ours: () => Promise<OurBulks>): Promise<void>;
  /** Donations sent one by one: publishes this computer's missing ones, answers the team's (best effort). */
  shareOneByOne(own: () => OwnOneByOne[]): Promise<SharedOneByOne[]>;
  /** A donation just sent one by one (best effort: the next refresh publishes what is missing). */
  publishOne(donationId: string, kind: 'single' | 'replaces', sentAt: string): Promise<void>;
  /** Colleagues' corrections among these open declined donations, by donation id (best effort). */
  correctionsElsewhere(donationIds: readonly string[]): Promise<Map<string, CorrectionElsewhere>>;
  /** The guard a correction sent one by one is made under; undefined alone. */
  correctionGuard(): Promise<CorrectionGuard | undefined>;
  /** An upload's rows that replace declined donations claim them, all or none (throws CORRECTION_ELSEWHERE). */
  claimForUpload(
    uploadId: string,
    rows: ReadonlyArray<{ rowKey: number; rowNumber: number | null; donationId: string }>,
  ): Promise<void>;
  /** Replacements seen in a listing finish the claims this login holds (best effort). */
  finishCorrections(seen: ReadonlyArray<[declinedId: string, replacementId: string]>): Promise<void>;
  /** Of these open declined donations (`open` read only if needed), those colleagues closed (best effort). */
  closedElsewhere(open: () => string[]): Promise<ClosedElsewhere>;
  /**
   * A dismissal for the team: refused (CORRECTION_ELSEWHERE) while a colleague corrects the donation
   * or has replaced it, and (TEAM_UNREACHABLE) while the team cannot be reached. Null: alone.
   */
  dismiss(donationId: string, reason: string): Promise<SharedDismissal | null>;
}

/** Working alone: nothing is shared and nothing is read from anyone else. */
export const localLedgerSharing: LedgerSharing = {
  colleaguesBulks: () => Promise.resolve(null),
  publishBulks: () => Promise.resolve(),
  shareOneByOne: () => Promise.resolve([]),
  publishOne: () => Promise.resolve(),
  correctionsElsewhere: () => Promise.resolve(new Map()),
  correctionGuard: () => Promise.resolve(undefined),
  claimForUpload: () => Promise.resolve(),
  finishCorrections: () => Promise.resolve(),
  closedElsewhere: () => Promise.resolve({ replaced: [], dismissed: [] }),
  dismiss: () => Promise.resolve(null),
};
