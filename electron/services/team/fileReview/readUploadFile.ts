/*
 * On the approver's computer: the upload's file, fetched part by part from the team database,
 * checked, read and compared with what the preparer's app declared. What the approver sees and
 * what blocks the approval come from here, never from the declaration alone.
 */
import type { FileReview } from '../../../../shared/contract';
import { DeskFailure } from '../../../../shared/result';
import type { TeamDatabase, TeamUpload, TeamUploadFile } from '../teamTypes';
import { declaredDifferences } from './declaredDifferences';
import { fileFigures, guardFingerprints } from './fileSummary';
import { NOT_READABLE, NOT_STORED, readStoredParts } from './storedParts';

export interface ReadOptions {
  /** A cause's name where this computer knows it (null: the id is shown). */
  causeName?: (recipientId: string) => string | null;
  /** Caps on the inflated size (tests); see storedParts. */
  limits?: { part: number; file: number };
}

/** The parts stored for the upload; null when the team database does not let this login read them. */
async function fetchParts(db: TeamDatabase, uploadId: string): Promise<TeamUploadFile[] | null> {
  try {
    return await db.fetchUploadFile(uploadId);
  } catch (e) {
    if (e instanceof DeskFailure && e.code === 'TEAM_REFUSED') return null;
    throw e;
  }
}

/** The upload's file as this computer reads it, or why it cannot be checked. */
export async function readUploadFile(
  db: TeamDatabase,
  upload: TeamUpload,
  options: ReadOptions = {},
): Promise<FileReview> {
  const parts = await fetchParts(db, upload.id);
  if (parts === null) {
    return {
      checked: false,
      problem: upload.sender === 'preparer' ? NOT_STORED : NOT_READABLE,
    };
  }
  const read = await readStoredParts(
    parts.map((p) => ({ part: p.part, bytes: p.bytes })),
    upload.fileSha256,
    options.limits,
  );
  if (!read.ok) return { checked: false, problem: read.problem };
  const fingerprints = guardFingerprints(read.donations);
  const sent = await db.sentElsewhere(upload.environmentKey, fingerprints, upload.id);
  const figures = fileFigures(read.donations, {
    createdAt: upload.createdAt,
    sent,
    fingerprints,
    ...(options.causeName ? { causeName: options.causeName } : {}),
  });
  const differences = declaredDifferences(
    { rows: read.donations.length, totals: figures.totals, largestRecipients: figures.largestRecipients },
    { rows: upload.rows, totals: upload.totals, largestRecipients: upload.review.largestRecipients },
  );
  return { ...figures, checked: true, differences };
}

/** Why the file blocks approval, in sentences; null when it was read and agrees with the declaration. */
export function whyFileBlocks(file: FileReview): string | null {
  if (!file.checked) return file.problem;
  return file.differences.length ? file.differences.join(' ') : null;
}

/**
 * Whether the file shows a sign that someone tried to pass one thing for another (a declaration that
 * differs, bytes that are not the ones declared): worth an entry in the audit trail. A file not
 * stored (yet) or not readable with this login's rights is not.
 */
export function isTamperSign(file: FileReview): boolean {
  if (file.checked) return file.differences.length > 0;
  return file.problem !== NOT_STORED && file.problem !== NOT_READABLE;
}

/** What the audit trail keeps of a blocked approval: the file's figures beside the declaration. */
export function blockedDetails(upload: TeamUpload, file: FileReview): Record<string, unknown> {
  return {
    workspaceName: upload.workspaceName,
    preparer: upload.preparer,
    fileSha256: upload.fileSha256,
    declared: { rows: upload.rows, totals: upload.totals },
    ...(file.checked
      ? { computed: { rows: file.rows.length, totals: file.totals }, differences: file.differences }
      : { problem: file.problem }),
  };
}
