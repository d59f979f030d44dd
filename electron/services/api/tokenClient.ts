import { z } from 'zod';
import { DeskFailure } from '../../../shared/result';
import { parseRetryAfter } from './backoff';
import type { MaintenanceWatch } from './maintenanceWatch';
import { serviceErrors } from './serviceFailures';

const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
});

export interface TokenClientConfig {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface ObtainedToken {
  accessToken: string;
  expiresAt: number;
  expiresIn: number;
}

/** Renew this long before the service's expiry so a token never lapses mid-request. */
const RENEW_MARGIN_MS = 60_000;

/**
 * Client-credentials token for one environment: form-body request, reused until shortly before it
 * expires. The token and the secret stay inside this object: never logged, never in an error.
 */
export class TokenClient {
  private current: ObtainedToken | null = null;
  private pending: Promise<ObtainedToken> | null = null;

  constructor(
    private readonly config: TokenClientConfig,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly now: () => number = Date.now,
    /** The desk's view of the service's maintenance: a token refused by it holds instead of failing. */
    private readonly maintenance?: MaintenanceWatch,
  ) {}

  async accessToken(): Promise<string> {
    return (await this.obtain()).accessToken;
  }

  /** Forget the token (after a 401), so the next call fetches a new one. */
  invalidate(): void {
    this.current = null;
  }

  async obtain(): Promise<ObtainedToken> {
    if (this.current && this.current.expiresAt - RENEW_MARGIN_MS > this.now()) return this.current;
    this.pending ??= this.request().finally(() => {
      this.pending = null;
    });
    this.current = await this.pending;
    return this.current;
  }

  private async request(): Promise<ObtainedToken> {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
    });
    let response: Response;
    try {
      response = await this.fetchImpl(this.config.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: body.toString(),
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      const held = this.maintenance?.failure({ status: 0 });
      if (held) throw held;
      throw new DeskFailure(
        'NETWORK',
        `Could not reach the token address ${safeOrigin(this.config.tokenUrl)}. Check the address and your network connection.`,
      );
    }
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      throw new DeskFailure(
        'AUTH_FAILED',
        'The service refused the client id or client secret. Check both in Settings and try again.',
        { status: response.status },
      );
    }
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => null);
      const held = this.maintenance?.failure({
        status: response.status,
        code: serviceErrors(body)[0]?.code,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      });
      if (held) throw held;
      throw new DeskFailure(
        'SERVICE_UNAVAILABLE',
        `The token address answered ${response.status}. The service may be down or in maintenance; try again later.`,
        { status: response.status },
      );
    }
    this.maintenance?.answered();
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      json = null;
    }
    const parsed = tokenResponse.safeParse(json);
    if (!parsed.success) {
      throw new DeskFailure(
        'BAD_RESPONSE',
        'The token address answered with something that is not a token. Check the token address.',
      );
    }
    const expiresIn = parsed.data.expires_in ?? 3600;
    return { accessToken: parsed.data.access_token, expiresIn, expiresAt: this.now() + expiresIn * 1000 };
  }
}

/** An address's origin, for messages: never its query (which might carry a credential). */
export function safeOrigin(address: string): string {
  try {
    const url = new URL(address);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid address)';
  }
}
