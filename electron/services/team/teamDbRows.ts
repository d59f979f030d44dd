import type { AuditEntry } from '../../../shared/contract/auditChannels';
import type {
  CorrectionHolder,
  CurrencyTotal,
  NewTeamUpload,
  SentElsewhere,
  TeamBulk,
  TeamDismissal,
  TeamSender,
  TeamUpload,
  TeamUploadState,
} from './teamTypes';

/*
 * The team database's rows as `pg` returns them, and how each becomes the app's team types.
 */

export interface DismissalRow {
  donation_id: string;
  reason: string;
  dismissed_by: string;
  computer: string;
  dismissed_at: Date;
}

export const toDismissal = (r: DismissalRow): TeamDismissal => ({
  donationId: r.donation_id,
  reason: r.reason,
  by: r.dismissed_by,
  computer: r.computer,
  at: r.dismissed_at.toISOString(),
});

export interface SentBulkRow {
  environment_key: string;
  bulk_id: string;
  upload_id: string;
  part: number;
  upload_created_at: Date;
  part_totals: CurrencyTotal[];
  state: TeamBulk['state'];
  taken_totals: CurrencyTotal[] | null;
  sent_by: string;
  computer: string;
  updated_at: Date;
  workspace_name: string;
}

export const toTeamBulk = (r: SentBulkRow): TeamBulk => ({
  environmentKey: r.environment_key,
  bulkId: r.bulk_id,
  uploadId: r.upload_id,
  part: r.part,
  uploadCreatedAt: r.upload_created_at.toISOString(),
  partTotals: r.part_totals,
  state: r.state,
  takenTotals: r.taken_totals,
  workspaceName: r.workspace_name,
  sentBy: r.sent_by,
  computer: r.computer,
  updatedAt: r.updated_at.toISOString(),
});

export interface UploadRow {
  id: string;
  workspace_name: string;
  environment: string;
  environment_key: string;
  computer: string;
  file_sha256: string;
  rows: number;
  totals: CurrencyTotal[];
  review: NewTeamUpload['review'];
  preparer: string;
  state: TeamUploadState;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
  sent_by: string | null;
  sent_at: Date | null;
  sender: TeamSender;
  sent_from: string | null;
}

export interface ClaimRow {
  fingerprint: string;
  upload_id: string;
  claimed_by: string;
  computer: string;
  claimed_at: Date;
}

export interface CorrectionRow {
  donation_id: string;
  claimed_by: string;
  computer: string;
  claimed_at: Date;
  how: CorrectionHolder['how'];
  upload_id: string | null;
  replacement_id: string | null;
  state: CorrectionHolder['state'];
}

export function toHolder(row: CorrectionRow): CorrectionHolder {
  return {
    donationId: row.donation_id,
    by: row.claimed_by,
    computer: row.computer,
    since: row.claimed_at.toISOString(),
    how: row.how,
    uploadId: row.upload_id,
    state: row.state,
    replacementId: row.replacement_id,
  };
}

export interface AuditRow {
  seq: string;
  at: Date;
  person: string;
  computer: string;
  environment: string;
  action: string;
  workspace_id: string | null;
  upload_id: string | null;
  donation_id: string | null;
  details: Record<string, unknown>;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toUpload(row: UploadRow): TeamUpload {
  return {
    id: row.id,
    workspaceName: row.workspace_name,
    environment: row.environment,
    environmentKey: row.environment_key,
    computer: row.computer,
    fileSha256: row.file_sha256,
    rows: row.rows,
    totals: row.totals,
    review: row.review,
    preparer: row.preparer,
    state: row.state,
    createdAt: row.created_at.toISOString(),
    decidedBy: row.decided_by,
    decidedAt: iso(row.decided_at),
    reason: row.reason,
    sentBy: row.sent_by,
    sentAt: iso(row.sent_at),
    sender: row.sender ?? 'preparer',
    sentFrom: row.sent_from ?? null,
  };
}

export function toSentElsewhere(row: ClaimRow): SentElsewhere {
  return {
    fingerprint: row.fingerprint,
    uploadId: row.upload_id,
    sentBy: row.claimed_by,
    computer: row.computer,
    at: row.claimed_at.toISOString(),
  };
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    seq: Number(row.seq),
    at: row.at.toISOString(),
    person: row.person,
    computer: row.computer,
    environment: row.environment,
    action: row.action,
    workspaceId: row.workspace_id,
    uploadId: row.upload_id,
    donationId: row.donation_id,
    details: row.details,
  };
}
