import busboy from 'busboy';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BUCKET, acceptUpload, checkErrorFileUrl, errorFileContent, signPolicy } from './bulk';
import type { Core } from './core';
import { isRecord } from './http';

/** The storage host answers like an object store: XML error documents with a Code and a Message. */
function sendXmlError(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')}</Message></Error>`;
  res.writeHead(status, {
    'Content-Type': 'application/xml',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}

class UploadRejected extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const REQUIRED_FIELDS = [
  'key',
  'policy',
  'x-cloud-algorithm',
  'x-cloud-credential',
  'x-cloud-date',
  'x-cloud-security-token',
  'x-cloud-signature',
];

interface ParsedUpload {
  /** Field names are case-insensitive, as on common object stores. */
  fields: Map<string, string>;
  file: Buffer | undefined;
  fileSize: number;
  fieldAfterFile: string | undefined;
  duplicateFile: boolean;
}

function parseMultipart(req: IncomingMessage, hardLimit: number): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fields: 50, fieldSize: 64 * 1024, files: 2 } });
    } catch {
      reject(new UploadRejected(400, 'MalformedPOSTRequest', 'The body must be multipart/form-data.'));
      return;
    }
    const result: ParsedUpload = {
      fields: new Map(),
      file: undefined,
      fileSize: 0,
      fieldAfterFile: undefined,
      duplicateFile: false,
    };
    let fileSeen = false;
    parser.on('field', (name, value) => {
      if (fileSeen && result.fieldAfterFile === undefined) result.fieldAfterFile = name;
      result.fields.set(name.toLowerCase(), value);
    });
    parser.on('file', (name, stream) => {
      if (name !== 'file' || fileSeen) {
        if (fileSeen) result.duplicateFile = true;
        else if (result.fieldAfterFile === undefined) result.fieldAfterFile = name;
        stream.resume();
        return;
      }
      fileSeen = true;
      const chunks: Buffer[] = [];
      // Keep counting past the limit (to report the size) but stop keeping the bytes.
      stream.on('data', (chunk: Buffer) => {
        result.fileSize += chunk.length;
        if (result.fileSize <= hardLimit) chunks.push(chunk);
      });
      stream.on('end', () => {
        result.file = Buffer.concat(chunks);
      });
    });
    parser.on('error', () =>
      reject(new UploadRejected(400, 'MalformedPOSTRequest', 'The multipart body is malformed.')),
    );
    parser.on('close', () => resolve(result));
    req.pipe(parser);
  });
}

function decodePolicy(policy: string): { expiration: string; conditions: unknown[] } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(policy, 'base64').toString('utf8'));
    if (isRecord(parsed) && typeof parsed['expiration'] === 'string' && Array.isArray(parsed['conditions'])) {
      return { expiration: parsed['expiration'], conditions: parsed['conditions'] };
    }
  } catch {
    // fall through to the rejection below
  }
  throw new UploadRejected(400, 'InvalidPolicyDocument', 'The Policy field is not a valid policy document.');
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function handleUpload(
  core: Core,
  req: IncomingMessage,
  res: ServerResponse,
  bucket: string,
): Promise<void> {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new UploadRejected(400, 'MalformedPOSTRequest', 'The body must be multipart/form-data.');
  }
  const upload = await parseMultipart(req, core.faults.settings.maxUploadBytes);
  const { fields } = upload;
  if (upload.file === undefined) {
    throw new UploadRejected(400, 'MissingFile', 'The form has no "file" field; it must be the last field.');
  }
  if (upload.fieldAfterFile !== undefined || upload.duplicateFile) {
    throw new UploadRejected(
      400,
      'InvalidArgument',
      `"file" must be the last field of the form; "${upload.fieldAfterFile ?? 'file'}" came after it.`,
    );
  }
  for (const name of REQUIRED_FIELDS) {
    if (!fields.get(name))
      throw new UploadRejected(400, 'InvalidArgument', `The form field "${name}" is missing.`);
  }
  const policyText = fields.get('policy') as string;
  if (!safeEqual(signPolicy(core.uploadKey, policyText), fields.get('x-cloud-signature') as string)) {
    throw new UploadRejected(403, 'SignatureDoesNotMatch', 'The signature does not match the policy.');
  }
  const policy = decodePolicy(policyText);
  const now = core.nowMs();
  if (core.faults.settings.expireUploadUrls || !(Date.parse(policy.expiration) > now)) {
    throw new UploadRejected(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  }
  const values = new Map(fields);
  values.set('bucket', fields.get('bucket') ?? bucket);
  if (bucket !== BUCKET)
    throw new UploadRejected(404, 'NoSuchBucket', `The bucket "${bucket}" does not exist.`);
  let range: [number, number] = [0, Number.MAX_SAFE_INTEGER];
  for (const condition of policy.conditions) {
    if (Array.isArray(condition) && condition[0] === 'content-length-range') {
      range = [Number(condition[1]), Number(condition[2])];
    } else if (isRecord(condition)) {
      for (const [name, expected] of Object.entries(condition)) {
        const given = values.get(name.toLowerCase());
        if (given !== expected) {
          throw new UploadRejected(
            403,
            'AccessDenied',
            `Invalid according to Policy: Policy Condition failed: ["eq", "$${name}", ...]`,
          );
        }
      }
    }
  }
  if (upload.fileSize > range[1]) {
    throw new UploadRejected(
      400,
      'EntityTooLarge',
      `Your proposed upload exceeds the maximum allowed size of ${range[1]} bytes.`,
    );
  }
  if (upload.fileSize < range[0]) {
    throw new UploadRejected(
      400,
      'EntityTooSmall',
      `Your proposed upload is smaller than the minimum of ${range[0]} bytes.`,
    );
  }
  const bulk = [...core.bulks.values()].find((b) => b.key === fields.get('key'));
  if (!bulk || !safeEqual(bulk.securityToken, fields.get('x-cloud-security-token') as string)) {
    throw new UploadRejected(403, 'AccessDenied', 'No upload is expected for this key.');
  }
  if (bulk.status !== 'PENDING') {
    throw new UploadRejected(
      403,
      'AccessDenied',
      `This upload address was already used (the intent is ${bulk.status}).`,
    );
  }
  if (bulk.expiresAt <= now)
    throw new UploadRejected(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  acceptUpload(core, bulk, upload.file);
  res.writeHead(204, { ETag: `"${bulk.id}"` });
  res.end();
}

function handleErrorFile(core: Core, res: ServerResponse, url: URL, bulkId: string, fileName: string): void {
  const bulk = core.bulks.get(bulkId);
  const verdict = checkErrorFileUrl(core, bulkId, fileName, url.searchParams);
  if (verdict === 'bad-signature' || !bulk || bulk.error?.fileName !== fileName) {
    throw new UploadRejected(
      403,
      'SignatureDoesNotMatch',
      'The address is not a valid signed error-file address.',
    );
  }
  if (verdict === 'expired') {
    throw new UploadRejected(
      403,
      'AccessDenied',
      'Request has expired; fetch the bulk intent again for a new address.',
    );
  }
  const content = errorFileContent(core, bulk);
  if (!content) throw new UploadRejected(404, 'NoSuchKey', 'The error file no longer exists.');
  res.writeHead(200, {
    'Content-Type': 'application/gzip',
    'Content-Length': content.length,
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Cache-Control': 'no-store',
  });
  res.end(content);
}

/**
 * The separate storage host: signed form uploads and signed error-file downloads. No bearer token;
 * the signatures are the authorisation. The maintenance window and dropped connections apply here too.
 */
export async function handleUploadHost(core: Core, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://upload.local');
  try {
    core.runDue();
    const decision = core.faults.decide(core.nowMs());
    if (decision.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'status') {
      if (decision.retryAfter !== undefined) res.setHeader('Retry-After', String(decision.retryAfter));
      const code =
        decision.status === 500
          ? 'InternalError'
          : decision.status === 429
            ? 'SlowDown'
            : 'ServiceUnavailable';
      throw new UploadRejected(decision.status, code, decision.detail);
    }
    const errorFile = /^\/error-files\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && errorFile) {
      handleErrorFile(core, res, url, errorFile[1] ?? '', errorFile[2] ?? '');
      return;
    }
    const bucket = /^\/([^/]+)\/?$/.exec(url.pathname);
    if (req.method === 'POST' && bucket) {
      await handleUpload(core, req, res, bucket[1] ?? '');
      return;
    }
    throw new UploadRejected(404, 'NoSuchKey', 'Not found.');
  } catch (error) {
    if (res.headersSent) return;
    if (error instanceof UploadRejected) {
      // Drain what the client is still sending so it reads our answer instead of a reset connection.
      req.resume();
      sendXmlError(res, error.status, error.code, error.message);
    } else {
      sendXmlError(res, 500, 'InternalError', 'We encountered an internal error. Please try again.');
    }
  }
}
