import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ErrorObject {
  status: string;
  code: string;
  title: string;
  detail: string;
  source?: { pointer?: string; parameter?: string };
  meta?: Record<string, unknown> | null;
}

export function errorObject(
  status: number,
  code: string,
  title: string,
  detail: string,
  source?: { pointer?: string; parameter?: string },
): ErrorObject {
  return { status: String(status), code, title, detail, ...(source ? { source } : {}), meta: null };
}

/** Thrown by route handlers; the server turns it into a JSON:API error document. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors[0]?.title ?? `HTTP ${status}`);
  }

  static single(
    status: number,
    code: string,
    title: string,
    detail: string,
    source?: { pointer?: string; parameter?: string },
  ): ApiError {
    return new ApiError(status, [errorObject(status, code, title, detail, source)]);
  }
}

export const JSON_API = 'application/vnd.api+json';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = JSON_API,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': `${contentType}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendNoContent(res: ServerResponse): void {
  res.writeHead(204, { 'Cache-Control': 'no-store' });
  res.end();
}

export function sendError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.status, { errors: error.errors }, JSON_API, error.headers);
}

export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > limitBytes) {
      throw ApiError.single(
        413,
        'PAYLOAD_TOO_LARGE',
        'Request body too large',
        `The limit is ${limitBytes} bytes.`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

const JSON_TYPES = ['application/json', 'application/vnd.api+json'];

/** Parses a JSON request body; an empty body yields undefined so callers can decide if one is needed. */
export async function readJson(req: IncomingMessage, limitBytes = 10 * 1024 * 1024): Promise<unknown> {
  const raw = await readBody(req, limitBytes);
  if (raw.length === 0) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!JSON_TYPES.includes(type)) {
    throw ApiError.single(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Unsupported media type',
      `Send the body as application/vnd.api+json or application/json, not "${type || 'none'}".`,
    );
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw ApiError.single(400, 'INVALID_JSON', 'Malformed JSON', 'The request body is not valid JSON.', {
      pointer: '',
    });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) {
    throw ApiError.single(400, 'INVALID_BODY', 'Invalid request body', 'The body must be a JSON object.', {
      pointer: '',
    });
  }
  return body;
}

/** Escapes a JSON pointer token (RFC 6901). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function notFound(what: string, id: string): ApiError {
  return ApiError.single(
    404,
    'NOT_FOUND',
    `${what} not found`,
    `No ${what.toLowerCase()} has the id "${id}".`,
  );
}
