import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { BulkRecord } from './bulkTypes';
import type { Core } from './core';
import { isInDirectory } from './directory';
import { type DonationInput, validateDonation } from './donationRules';
import { type ErrorObject, errorObject, isRecord } from './http';
import { createRng, intBetween, seedFrom } from './random';

export const BUCKET = 'giving-bulk-uploads';
export const ALGORITHM = 'CLOUD-HMAC-SHA256';
export const ACCESS_KEY = 'EMULATORACCESSKEY';
/** How long an upload address stays valid after the intent is created. */
export const UPLOAD_URL_LIFETIME_SECONDS = 3600;
export const ERROR_FILE_URL_LIFETIME_SECONDS = 600;
const MAX_PROCESSING_MS = 24 * 3_600_000;

function compactDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function signPolicy(uploadKey: string, policy: string): string {
  return createHmac('sha256', uploadKey).update(policy).digest('hex');
}

export function uploadFields(core: Core, bulk: BulkRecord): Record<string, string> {
  const date = compactDate(bulk.createdAt);
  const credential = `${ACCESS_KEY}/${date.slice(0, 8)}/local/storage/cloud_request`;
  const policy = Buffer.from(
    JSON.stringify({
      expiration: new Date(bulk.expiresAt).toISOString(),
      conditions: [
        { bucket: BUCKET },
        { key: bulk.key },
        ['content-length-range', 1, core.faults.settings.maxUploadBytes],
        { 'x-cloud-algorithm': ALGORITHM },
        { 'x-cloud-credential': credential },
        { 'x-cloud-date': date },
        { 'x-cloud-security-token': bulk.securityToken },
      ],
    }),
  ).toString('base64');
  return {
    bucket: BUCKET,
    key: bulk.key,
    Policy: policy,
    'X-Cloud-Algorithm': ALGORITHM,
    'X-Cloud-Credential': credential,
    'X-Cloud-Date': date,
    'X-Cloud-Security-Token': bulk.securityToken,
    'X-Cloud-Signature': signPolicy(core.uploadKey, policy),
  };
}

export function createIntent(core: Core): BulkRecord {
  const now = core.nowMs();
  const id = core.nextId('bulk');
  const bulk: BulkRecord = {
    id,
    status: 'PENDING',
    createdAt: now,
    updatedAt: now,
    expiresAt: now + UPLOAD_URL_LIFETIME_SECONDS * 1000,
    key: `bulk-donations/${id}/donations.json.gz`,
    securityToken: randomBytes(24).toString('base64url'),
    nextStepAt: null,
    uploadedBytes: null,
    counts: {},
    error: null,
  };
  core.bulks.set(id, bulk);
  core.markDirty();
  return bulk;
}

function stepRng(core: Core, bulk: BulkRecord, step: string): () => number {
  return createRng(seedFrom(core.seed, 'bulk', bulk.id, step));
}

/** Called by the upload host after a successful upload. */
export function acceptUpload(core: Core, bulk: BulkRecord, file: Buffer): void {
  const now = core.nowMs();
  core.blobs.put(`upload-${bulk.id}.gz`, file);
  bulk.status = 'UPLOADED';
  bulk.updatedAt = now;
  bulk.uploadedBytes = file.length;
  bulk.nextStepAt = now + intBetween(stepRng(core, bulk, 'validate'), 60, 180) * 1000;
  core.markDirty();
}

type ParseOutcome =
  | { kind: 'file-error'; detail: string }
  | { kind: 'invalid'; uploaded: number; invalid: unknown[] }
  | { kind: 'valid'; donations: DonationInput[] };

/** A donation that passed the rules but names a recipient the directory does not have. */
function unknownRecipient(input: DonationInput, index: number): ErrorObject {
  const recipientId = input.destination.recipientId;
  return {
    ...errorObject(
      422,
      'RECIPIENT_NOT_FOUND',
      'Recipient not found',
      `No cause, project or portfolio has the id "${recipientId}".`,
      { pointer: `/data/${index}/attributes/destination/recipientId` },
    ),
    meta: { index },
  };
}

/**
 * Reads and checks an uploaded file. `knowsRecipient` is given when validation looks each
 * recipient up in the directory (the emulator's `recipientCheck: 'validation'`).
 */
function parseBulkFile(file: Buffer, knowsRecipient?: (recipientId: string) => boolean): ParseOutcome {
  let text: string;
  try {
    text = gunzipSync(file).toString('utf8');
  } catch {
    return { kind: 'file-error', detail: 'The file is not gzip-compressed.' };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'file-error', detail: 'The file does not contain valid JSON.' };
  }
  if (!isRecord(body) || !Array.isArray(body['data'])) {
    return {
      kind: 'file-error',
      detail: 'The file must be a JSON object whose "data" attribute is an array of donations.',
    };
  }
  const extra = Object.keys(body).filter((k) => k !== 'data');
  if (extra.length > 0) {
    return {
      kind: 'file-error',
      detail: `"data" is the only top-level attribute allowed; found ${extra.join(', ')}.`,
    };
  }
  const data = body['data'] as unknown[];
  if (data.length === 0) return { kind: 'file-error', detail: 'The file contains no donations.' };
  const valid: DonationInput[] = [];
  const invalid: unknown[] = [];
  data.forEach((entry, index) => {
    const result = validateDonation(entry, `/data/${index}`);
    if (result.ok && knowsRecipient && !knowsRecipient(result.input.destination.recipientId)) {
      invalid.push({ ...(isRecord(entry) ? entry : {}), errors: [unknownRecipient(result.input, index)] });
    } else if (result.ok) valid.push(result.input);
    else {
      const errors = result.errors.map((e) => ({ ...e, meta: { index } }));
      invalid.push({ ...(isRecord(entry) ? entry : {}), errors });
    }
  });
  if (invalid.length > 0) return { kind: 'invalid', uploaded: data.length, invalid };
  return { kind: 'valid', donations: valid };
}

function fail(
  core: Core,
  bulk: BulkRecord,
  at: number,
  error: NonNullable<BulkRecord['error']>,
  file?: Buffer,
): void {
  if (file) core.blobs.put(`errors-${bulk.id}.gz`, file);
  bulk.status = 'ERROR';
  bulk.updatedAt = at;
  bulk.nextStepAt = null;
  bulk.error = error;
  core.parsedBulks.delete(bulk.id);
}

function recipientLookup(core: Core): ((recipientId: string) => boolean) | undefined {
  if (core.options.recipientCheck !== 'validation') return undefined;
  return (recipientId) => isInDirectory(core.catalogue, recipientId);
}

function parsedDonations(core: Core, bulk: BulkRecord): DonationInput[] {
  const cached = core.parsedBulks.get(bulk.id);
  if (cached) return cached;
  // After a restart the parsed list is gone; the stored upload was already found valid, so parse it again.
  const file = core.blobs.get(`upload-${bulk.id}.gz`);
  // No directory look-up again: validation has passed, whatever the recipient check is now.
  const outcome = file ? parseBulkFile(file) : undefined;
  const donations = outcome?.kind === 'valid' ? outcome.donations : [];
  core.parsedBulks.set(bulk.id, donations);
  return donations;
}

/** One automatic step of a bulk intent, run at its scheduled virtual time. */
export function runBulkStep(core: Core, bulk: BulkRecord): void {
  const at = bulk.nextStepAt ?? core.nowMs();
  if (bulk.status === 'UPLOADED') {
    const file = core.blobs.get(`upload-${bulk.id}.gz`) ?? Buffer.alloc(0);
    const outcome = parseBulkFile(file, recipientLookup(core));
    if (outcome.kind === 'file-error') {
      fail(core, bulk, at, { form: 'file', detail: outcome.detail, fileName: 'donations.gz' });
      return;
    }
    if (outcome.kind === 'invalid') {
      bulk.counts = { uploaded: outcome.uploaded, invalid: outcome.invalid.length };
      const errorFile = gzipSync(JSON.stringify({ data: outcome.invalid }));
      const one = outcome.invalid.length === 1;
      const detail = `${outcome.invalid.length} of ${outcome.uploaded} donations ${one ? 'is' : 'are'} invalid; download the error file, correct ${one ? 'it' : 'them'} and upload a new file.`;
      fail(core, bulk, at, { form: 'donations', detail, fileName: 'donation-errors.gz' }, errorFile);
      return;
    }
    core.parsedBulks.set(bulk.id, outcome.donations);
    bulk.counts = { uploaded: outcome.donations.length };
    bulk.status = 'VALIDATED';
    bulk.updatedAt = at;
    bulk.nextStepAt = at + intBetween(stepRng(core, bulk, 'pickup'), 30, 90) * 1000;
    return;
  }
  if (bulk.status === 'VALIDATED') {
    const count = bulk.counts.uploaded ?? 0;
    bulk.status = 'PROCESSING';
    bulk.updatedAt = at;
    bulk.nextStepAt = at + Math.min(MAX_PROCESSING_MS, 60_000 + Math.ceil(count / 1000) * 1000);
    return;
  }
  if (bulk.status === 'PROCESSING') {
    const donations = parsedDonations(core, bulk);
    const failure = core.faults.settings.partialExtractionFailure;
    const extractCount =
      failure && failure.afterDonations < donations.length ? failure.afterDonations : donations.length;
    // After a crash between logging donations and saving the bulk's state, resume instead of duplicating.
    const alreadyCreated = core.donations.forBulk(bulk.id).length;
    for (let i = alreadyCreated; i < extractCount; i++)
      core.createDonation(donations[i] as DonationInput, at, bulk.id);
    if (extractCount < donations.length) {
      const failed = donations.slice(extractCount).map((input, offset) => {
        const index = extractCount + offset;
        const error: ErrorObject = {
          ...errorObject(
            500,
            'EXTRACTION_FAILED',
            'Donation extraction failed',
            'The donation could not be extracted from the file; upload it again in a new file.',
            { pointer: `/data/${index}` },
          ),
          meta: { index },
        };
        return { type: 'donations', attributes: input, errors: [error] };
      });
      bulk.counts = { uploaded: donations.length, accepted: extractCount, failed: failed.length };
      const detail = `${failed.length} of ${donations.length} donations failed extraction; ${extractCount} were created.`;
      fail(
        core,
        bulk,
        at,
        { form: 'extraction', detail, fileName: 'donation-errors.gz' },
        gzipSync(JSON.stringify({ data: failed })),
      );
      return;
    }
    bulk.counts = { uploaded: donations.length, accepted: donations.length };
    bulk.status = 'PROCESSED';
    bulk.updatedAt = at;
    bulk.nextStepAt = null;
    core.parsedBulks.delete(bulk.id);
    return;
  }
  bulk.nextStepAt = null;
}

function errorFileSignature(
  core: Core,
  bulkId: string,
  fileName: string,
  expires: number,
  nonce: string,
): string {
  return createHmac('sha256', core.uploadKey)
    .update(`${bulkId}\n${fileName}\n${expires}\n${nonce}`)
    .digest('hex');
}

/** A fresh signed address on every call, valid for 600 virtual seconds. */
export function errorFileUrl(core: Core, bulk: BulkRecord, uploadBaseUrl: string): string {
  if (!bulk.error) throw new Error('no error file');
  const expires = Math.floor(core.nowMs() / 1000) + ERROR_FILE_URL_LIFETIME_SECONDS;
  const nonce = randomBytes(8).toString('hex');
  const signature = errorFileSignature(core, bulk.id, bulk.error.fileName, expires, nonce);
  const params = new URLSearchParams({ expires: String(expires), nonce, signature });
  return `${uploadBaseUrl}/error-files/${bulk.id}/${bulk.error.fileName}?${params.toString()}`;
}

export function checkErrorFileUrl(
  core: Core,
  bulkId: string,
  fileName: string,
  query: URLSearchParams,
): 'ok' | 'expired' | 'bad-signature' {
  const expires = Number(query.get('expires'));
  const nonce = query.get('nonce') ?? '';
  const given = Buffer.from(query.get('signature') ?? '');
  const expected = Buffer.from(errorFileSignature(core, bulkId, fileName, expires, nonce));
  if (!Number.isFinite(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return 'bad-signature';
  }
  return expires * 1000 <= core.nowMs() ? 'expired' : 'ok';
}

export function errorFileContent(core: Core, bulk: BulkRecord): Buffer | undefined {
  if (!bulk.error) return undefined;
  return bulk.error.form === 'file'
    ? core.blobs.get(`upload-${bulk.id}.gz`)
    : core.blobs.get(`errors-${bulk.id}.gz`);
}

export function renderIntent(
  core: Core,
  bulk: BulkRecord,
  apiBaseUrl: string,
  uploadBaseUrl: string,
): unknown {
  const attributes: Record<string, unknown> = {
    status: bulk.status,
    createdAt: new Date(bulk.createdAt).toISOString(),
    updatedAt: new Date(bulk.updatedAt).toISOString(),
    expiresAt: new Date(bulk.expiresAt).toISOString(),
  };
  if (bulk.error) {
    const entry = {
      code: bulk.error.form === 'extraction' ? 'BULK_EXTRACTION_FAILED' : 'INVALID_BULK_DONATIONS',
      title:
        bulk.error.form === 'file'
          ? 'Invalid bulk file'
          : bulk.error.form === 'donations'
            ? 'Invalid donations'
            : 'Extraction failed',
      detail: bulk.error.detail,
      links: { href: errorFileUrl(core, bulk, uploadBaseUrl) },
    };
    attributes['errors'] = bulk.error.form === 'file' ? entry : [entry];
  }
  return {
    data: {
      type: 'bulkDonationIntent',
      id: bulk.id,
      attributes,
      links: {
        related: {
          href: `${apiBaseUrl}/donations?filter[bulk]=${bulk.id}`,
          meta: { ...bulk.counts },
        },
      },
    },
  };
}
