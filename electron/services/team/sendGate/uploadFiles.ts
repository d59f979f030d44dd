/*
 * Team mode: the preparer's computer stores each part's exact gzip file with the submission; the
 * computer that sends (the preparer's, or the approver's when the team's rule says so) sends those
 * stored bytes, and the approver's computer takes the upload over from them.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { bulkFileSchema, fingerprintDonation, type DonationAttributes } from '../../../../shared/donation';
import { DeskFailure } from '../../../../shared/result';
import type { LedgerGroup, LedgerPart } from '../../ledger/ledgerShapes';
import { writeFileAtomic } from '../../storage/atomicFile';
import { serviceInUse, type UploadBasics } from '../../upload/basics';
import { gunzipText, sha256 } from '../../upload/compress';
import { totalsOf } from '../../upload/prepare';
import type { TeamDatabase, TeamUpload, TeamUploadFile } from '../teamTypes';
import { bulkFileSha256, environmentKeyOf } from '../teamUploads';
import { teamCall } from './teamCall';

/**
 * Each part's exact gzip file goes to the team database (idempotent; once per run, not at every
 * look while it waits: `stored` remembers the uploads done).
 */
export async function storeFiles(
  ctx: Pick<UploadBasics, 'ledger'>,
  team: TeamDatabase,
  group: LedgerGroup,
  stored: Set<string>,
): Promise<void> {
  if (stored.has(group.id)) return;
  for (const part of group.parts) {
    const bytes = await readFile(join(ctx.ledger.dir, part.file));
    if (sha256(bytes) !== part.fileHash) {
      throw new DeskFailure(
        'LEDGER_FILE_MISSING',
        'The prepared file for this upload is missing or changed on disk, so it cannot be stored with the submission.',
      );
    }
    await teamCall(() => team.storeUploadFile(group.id, part.index, bytes));
  }
  stored.add(group.id);
}

/**
 * Right before an approved upload leaves this computer (whoever sends it): the bytes that go are the
 * ones stored in the team database with the submission, fetched and checked against the approved
 * SHA-256, never a rebuild nor a local file that changed. Each part's file on disk is replaced by the
 * stored bytes where it differs (the sender reads it from there and checks it once more). Parts not
 * stored yet (an upload submitted by an older app) are stored first from this computer's file, if it
 * is still the one approved. Throws FILE_MISMATCH when the approved bytes cannot be had: nothing is
 * sent then. Answers how many parts on disk were replaced.
 */
export async function useStoredBytes(
  ctx: Pick<UploadBasics, 'ledger'>,
  team: TeamDatabase,
  group: LedgerGroup,
  stored: Set<string>,
): Promise<number> {
  const approved = group.approval?.fileSha256 ?? '';
  let files = await teamCall(() => team.fetchUploadFile(group.id));
  if (!isApprovedFile(files, approved)) {
    stored.delete(group.id);
    await storeFiles(ctx, team, group, stored).catch(() => undefined);
    files = await teamCall(() => team.fetchUploadFile(group.id));
  }
  if (!isApprovedFile(files, approved) || files.length !== group.parts.length) {
    throw new DeskFailure(
      'FILE_MISMATCH',
      `The approved file of upload ${group.id} (SHA-256 ${approved}) is not stored in the team database, and the file on this computer is not that one: nothing was sent. Upload the workspace again.`,
    );
  }
  let replaced = 0;
  for (const part of group.parts) {
    const f = files[part.index];
    if (!f || f.sha256 !== part.fileHash) {
      throw new DeskFailure(
        'FILE_MISMATCH',
        `Part ${part.index + 1} stored with upload ${group.id} is not the part approved: nothing was sent. Upload the workspace again.`,
      );
    }
    const path = join(ctx.ledger.dir, part.file);
    const local = await readFile(path).catch(() => null);
    if (local && sha256(local) === f.sha256) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, f.bytes);
    replaced++;
  }
  return replaced;
}

/** Every part 0…n-1, each matching its hash, together the approved file (the bulkFileSha256 rule). */
function isApprovedFile(files: readonly TeamUploadFile[], approved: string): boolean {
  const hashes = files.map((f) => sha256(f.bytes));
  return (
    files.length > 0 &&
    files.every((f, i) => f.part === i && hashes[i] === f.sha256) &&
    bulkFileSha256(hashes) === approved
  );
}

/**
 * On the approver's computer: an approved upload this login is to send becomes an upload of this
 * computer's ledger, built from the exact files its preparer's computer stored (each part's SHA-256
 * checked, and together the one approved). It has no workspace; its rows are the files' donations
 * in order.
 */
export async function takeOver(
  ctx: Pick<UploadBasics, 'ledger' | 'environments'>,
  team: TeamDatabase,
  known: TeamUpload,
): Promise<LedgerGroup> {
  const existing = ctx.ledger.group(known.id);
  if (existing) return existing;
  if (known.sender !== 'approver' || known.state !== 'approved') {
    throw new DeskFailure(
      'NOT_TO_SEND',
      known.sender !== 'approver'
        ? `Upload ${known.id} is sent by ${known.preparer}, who prepared it.`
        : `Upload ${known.id} is ${known.state}: there is nothing to send.`,
    );
  }
  const env = await serviceInUse(ctx);
  if (environmentKeyOf(env) !== known.environmentKey) {
    throw new DeskFailure(
      'WRONG_ENVIRONMENT',
      `Upload ${known.id} was prepared for the service “${known.environment}”; this computer uses “${env.id}” now. Choose that service in Settings, then send it again (donation-desk resume).`,
    );
  }
  const files = await teamCall(() => team.fetchUploadFile(known.id));
  const hashes = files.map((f) => sha256(f.bytes));
  const whole = files.every((f, i) => f.part === i && hashes[i] === f.sha256);
  if (files.length === 0 || !whole || bulkFileSha256(hashes) !== known.fileSha256) {
    throw new DeskFailure(
      'FILE_MISMATCH',
      `The file stored with upload ${known.id} is not the one approved (SHA-256 ${known.fileSha256}), so it is not sent. Ask ${known.preparer} to upload the workspace again.`,
    );
  }
  await mkdir(join(ctx.ledger.dir, 'files'), { recursive: true });
  const parts: LedgerPart[] = [];
  let key = 0;
  for (const f of files) {
    // A colleague's file, though the very one approved: read as any file from outside, checked.
    let donations: DonationAttributes[];
    try {
      donations = bulkFileSchema.parse(JSON.parse(await gunzipText(f.bytes))).data.map((d) => d.attributes);
    } catch {
      throw new DeskFailure(
        'FILE_MISMATCH',
        `Part ${f.part + 1} of upload ${known.id} is not a bulk file Donation Desk can read, so it is not sent. Reject it and ask ${known.preparer} to upload the workspace again.`,
      );
    }
    const file = join('files', `${known.id}-${f.part}.json.gz`);
    await writeFileAtomic(join(ctx.ledger.dir, file), f.bytes);
    const rowKeys = donations.map(() => ++key);
    parts.push({
      index: f.part,
      rowKeys,
      rowNumbers: donations.map(() => null),
      fingerprints: donations.map((d) => fingerprintDonation(d)),
      totals: totalsOf(donations),
      fileHash: f.sha256,
      fileBytes: f.bytes.length,
      file,
    });
  }
  const group: LedgerGroup = {
    id: known.id,
    workspaceId: '',
    workspaceName: known.workspaceName,
    createdAt: known.createdAt,
    environment: env.id,
    baseUrl: env.baseUrl,
    referenceKey: null,
    parts,
    corrects: null,
    replaces: [],
    stopped: null,
    approval: {
      server: team.server,
      fileSha256: known.fileSha256,
      needed: true,
      state: known.state,
      preparer: known.preparer,
      decidedBy: known.decidedBy,
      decidedAt: known.decidedAt,
      reason: known.reason,
      sender: 'approver',
      sendsHere: true,
      sentBy: null,
      sentFrom: null,
    },
  };
  await ctx.ledger.putGroup(group);
  return group;
}
