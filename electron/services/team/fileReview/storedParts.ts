/*
 * The approver's computer reads an upload's file from the parts stored in the team database: each
 * part's SHA-256 worked out here, and together the one the preparer's app declared; each part
 * inflated with a cap on its size (a small gzip may inflate to gigabytes); each read as the bulk
 * file the service reads. Nothing here trusts the database's or the preparer's word for the bytes.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { bulkFileSchema, type DonationAttributes } from '../../../../shared/donation';
import { sha256 } from '../../upload/compress';
import { bulkFileSha256 } from '../teamUploads';

const gunzipAsync = promisify(gunzip);

/** The most JSON one part may inflate to: the upload limit (100 MiB) and a margin. */
export const MAX_PART_BYTES = 128 * 1024 * 1024;
/** The most JSON all parts together may inflate to. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

export const NOT_STORED =
  "The preparer's computer has not stored this file in the team database; it cannot be checked.";

/** The team database keeps the parts but does not let this login read them (an older schema). */
export const NOT_READABLE =
  'The team database does not let this login read the file stored with this upload, so it cannot be checked. Ask your desk admin to bring the team database up to date (donation-desk db init-team).';

export interface StoredPart {
  part: number;
  bytes: Uint8Array;
}

export type StoredFile = { ok: true; donations: DonationAttributes[] } | { ok: false; problem: string };

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The donations of the file stored as `parts`, checked against `declaredSha256` (see
 * bulkFileSha256); or why it cannot be read, in a sentence for the approver.
 */
export async function readStoredParts(
  parts: readonly StoredPart[],
  declaredSha256: string,
  limits: { part: number; file: number } = { part: MAX_PART_BYTES, file: MAX_FILE_BYTES },
): Promise<StoredFile> {
  if (parts.length === 0) return { ok: false, problem: NOT_STORED };
  const ordered = [...parts].sort((a, b) => a.part - b.part);
  if (ordered.some((p, i) => p.part !== i)) {
    return {
      ok: false,
      problem: `The team database holds parts ${ordered.map((p) => p.part + 1).join(', ')} of this file, not every part from the first: it cannot be checked. Do not approve it: tell your desk admin.`,
    };
  }
  const hashes = ordered.map((p) => sha256(p.bytes));
  if (bulkFileSha256(hashes) !== declaredSha256.toLowerCase()) {
    return {
      ok: false,
      problem: `The file stored in the team database is not the one the preparer's app declared (SHA-256 ${declaredSha256}). Do not approve it: tell your desk admin.`,
    };
  }
  const donations: DonationAttributes[] = [];
  let inflated = 0;
  for (const p of ordered) {
    const cap = Math.min(limits.part, limits.file - inflated);
    let text: string;
    try {
      const json = await gunzipAsync(p.bytes, { maxOutputLength: Math.max(cap, 1) });
      inflated += json.length;
      text = json.toString('utf8');
    } catch (e) {
      const tooLarge = (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
      return {
        ok: false,
        problem: tooLarge
          ? `Part ${p.part + 1} of this file unpacks to more than ${mb(cap)}, more than any upload Donation Desk prepares: it is not read. Do not approve it: tell your desk admin.`
          : `Part ${p.part + 1} of this file is not a compressed file Donation Desk can read. Do not approve it: tell your desk admin.`,
      };
    }
    let parsed;
    try {
      parsed = bulkFileSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      return {
        ok: false,
        problem: `Part ${p.part + 1} of this file is not a bulk file the giving service would accept. Do not approve it: tell your desk admin.`,
      };
    }
    for (const entry of parsed.data.data) donations.push(entry.attributes);
  }
  return { ok: true, donations };
}
