/*
 * Team mode, when the team's rule says the approver sends: the preparer's computer stores each
 * part's exact gzip file with the submission, and the approver's computer takes the upload over
 * from those files.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bulkFileSchema, fingerprintDonation, type DonationAttributes } from '../../../../shared/donation';
import { DeskFailure } from '../../../../shared/result';
import type { LedgerGroup, LedgerPart } from '../../ledger/ledgerShapes';
import { writeFileAtomic } from '../../storage/atomicFile';
import { serviceInUse, type UploadBasics } from '../../upload/basics';
import { gunzipText, sha256 } from '../../upload/compress';
import { totalsOf } from '../../upload/prepare';
import type { TeamDatabase, TeamUpload } from '../teamTypes';
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
        'The prepared file for this upload is missing or changed on disk, so it cannot go to the approver.',
      );
    }
    await teamCall(() => team.storeUploadFile(group.id, part.index, bytes));
  }
  stored.add(group.id);
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
