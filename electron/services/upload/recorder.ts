/*
 * Recording an upload: each part's bulk file built, compressed and kept beside the ledger, then the
 * upload written to the ledger. From there on it will be sent, even after a crash.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LedgerGroup, LedgerPart } from '../ledger/ledgerShapes';
import { replacementsOf } from './admission';
import { serviceInUse, type UploadBasics } from './basics';
import { gzipBulkFileTo } from './compress';
import { planParts, totalsOf, type ReadyRow, type ValidatedWorkspace } from './prepare';
import type { UploadSubmission } from './sendGate';

/** Progress of building and compressing part `part` of `parts`. */
export type RecordProgress = (
  part: number,
  parts: number,
  stage: 'building' | 'compressing',
  done: number,
  total: number | null,
) => void;

/** Builds, compresses and keeps each part's file, then records the upload: from here on it will be sent. */
export async function recordUpload(
  ctx: Pick<UploadBasics, 'ledger' | 'environments' | 'limits' | 'now'>,
  validated: ValidatedWorkspace,
  rows: readonly ReadyRow[],
  corrects: string | null,
  id: string,
  submission: UploadSubmission | null,
  progress: RecordProgress,
): Promise<LedgerGroup> {
  const env = await serviceInUse(ctx);
  const donations = rows.map((r) => r.donation);
  const plan = await planParts(donations, ctx.limits);
  const parts: LedgerPart[] = [];
  await mkdir(join(ctx.ledger.dir, 'files'), { recursive: true });
  for (const [index, slice] of plan.entries()) {
    progress(index, plan.length, 'building', slice.start, donations.length);
    const partRows = rows.slice(slice.start, slice.end);
    const partDonations = donations.slice(slice.start, slice.end);
    const file = join('files', `${id}-${index}.json.gz`);
    // Streamed to disk donation by donation, hashed on the way: never whole in memory.
    const compressed = await gzipBulkFileTo(
      join(ctx.ledger.dir, file),
      partDonations,
      partDonations.length,
      (done, total) => progress(index, plan.length, 'compressing', done, total),
    );
    parts.push({
      index,
      rowKeys: partRows.map((r) => r.key),
      rowNumbers: partRows.map((r) => r.rowNumber),
      fingerprints: partRows.map((r) => r.fingerprint),
      totals: totalsOf(partDonations),
      fileHash: compressed.sha256,
      fileBytes: compressed.bytes,
      file,
    });
  }
  const group: LedgerGroup = {
    id,
    workspaceId: validated.workspace.id,
    workspaceName: validated.workspace.name,
    createdAt: new Date(ctx.now()).toISOString(),
    environment: env.id,
    baseUrl: env.baseUrl,
    referenceKey: validated.referenceKey,
    parts,
    corrects,
    replaces: replacementsOf(rows).map(({ rowKey, donationId }) => ({ rowKey, donationId })),
    stopped: null,
    approval: submission ? submission.approval(parts.map((p) => p.fileHash)) : null,
  };
  await ctx.ledger.putGroup(group);
  return group;
}

/**
 * recordUpload, after the upload's corrections were claimed: when the upload cannot even be
 * recorded (a disk error, say), nothing was sent, so those claims are given back at once.
 */
export async function recordClaimed(
  ctx: Pick<UploadBasics, 'ledger' | 'environments' | 'limits' | 'now'>,
  validated: ValidatedWorkspace,
  rows: readonly ReadyRow[],
  corrects: string | null,
  id: string,
  submission: UploadSubmission | null,
  progress: RecordProgress,
): Promise<LedgerGroup> {
  try {
    return await recordUpload(ctx, validated, rows, corrects, id, submission, progress);
  } catch (e) {
    const claimed = replacementsOf(rows).map((r) => r.donationId);
    if (submission && !ctx.ledger.group(id)) await submission.notRecorded(id, claimed);
    throw e;
  }
}
