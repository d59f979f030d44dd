import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError, readBody } from './http';

export const TOKEN_LIFETIME_SECONDS = 3600;

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

export interface TokenContext {
  signingKey: string;
  clientId: string;
  clientSecret: string;
  nowMs: () => number;
  /** Tokens carry the generation they were issued in; revocation bumps it. */
  generation: () => number;
  nextJti: () => string;
}

class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export function isOAuthError(error: unknown): error is OAuthError {
  return error instanceof OAuthError;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** POST /oauth2/token: client credentials in a form body, or as HTTP Basic. */
export async function issueToken(req: IncomingMessage, ctx: TokenContext): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const raw = await readBody(req, 64 * 1024);
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthError(400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams(raw.toString('utf8'));
  if (form.get('grant_type') !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', 'grant_type must be client_credentials.');
  }
  let clientId = form.get('client_id');
  let clientSecret = form.get('client_secret');
  const authorization = req.headers.authorization;
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        clientSecret = decodeURIComponent(decoded.slice(colon + 1));
      } catch {
        throw new OAuthError(401, 'invalid_client', 'The Basic credentials are not correctly encoded.');
      }
    }
  }
  if (!clientId || !clientSecret) {
    throw new OAuthError(401, 'invalid_client', 'Client credentials are missing.');
  }
  if (!safeEqual(clientId, ctx.clientId) || !safeEqual(clientSecret, ctx.clientSecret)) {
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed.');
  }
  const iat = Math.floor(ctx.nowMs() / 1000);
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({
      iss: 'donation-desk-emulator',
      aud: 'giving-service',
      sub: clientId,
      iat,
      exp: iat + TOKEN_LIFETIME_SECONDS,
      jti: ctx.nextJti(),
      gen: ctx.generation(),
    }),
  );
  const signature = createHmac('sha256', ctx.signingKey).update(`${header}.${payload}`).digest('base64url');
  return {
    access_token: `${header}.${payload}.${signature}`,
    token_type: 'Bearer',
    expires_in: TOKEN_LIFETIME_SECONDS,
  };
}

function unauthorized(detail: string): ApiError {
  const error = ApiError.single(401, 'UNAUTHORIZED', 'Unauthorized', detail);
  return new ApiError(401, error.errors, { 'WWW-Authenticate': `Bearer error="invalid_token"` });
}

/** Checks the bearer token's signature, expiry (virtual clock) and revocation generation. */
export function verifyBearer(req: IncomingMessage, ctx: TokenContext): void {
  const authorization = req.headers.authorization;
  if (!authorization) throw unauthorized('An Authorization: Bearer <access_token> header is required.');
  const match = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <access_token>".');
  const [, header, payload, signature] = match as unknown as [string, string, string, string];
  const expected = createHmac('sha256', ctx.signingKey).update(`${header}.${payload}`).digest('base64url');
  if (!safeEqual(signature, expected)) throw unauthorized('The access token signature is not valid.');
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw unauthorized('The access token is malformed.');
  }
  const c = claims as { exp?: unknown; gen?: unknown };
  if (typeof c.exp !== 'number' || c.exp * 1000 <= ctx.nowMs())
    throw unauthorized('The access token has expired.');
  if (c.gen !== ctx.generation()) throw unauthorized('The access token has been revoked.');
}
