import type { z } from 'zod';
import { DeskFailure } from '../../../shared/result';
import type { ResolvedEnvironment } from '../environments';

/** One JSON:API error the service reported, kept so a caller can map it back to a row and a cell. */
export interface ServiceError {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  pointer?: string;
}

export interface ApiCall<S extends z.ZodType> {
  /** Named in every message, e.g. "updating a location (PATCH /locations/{id})". */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path and query after the base address. */
  path: string;
  body?: unknown;
  /** Schema of the answer; null when the answer has no body (204). */
  schema: S | null;
}

const TIMEOUT_MS = 30_000;

function serviceErrors(body: unknown): ServiceError[] {
  const list = (body as { errors?: unknown } | null)?.errors;
  const items = Array.isArray(list) ? list : list ? [list] : [];
  return items.flatMap((item: unknown) => {
    if (!item || typeof item !== 'object') return [];
    const e = item as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const source = e.source && typeof e.source === 'object' ? (e.source as Record<string, unknown>) : {};
    return [
      {
        status: str(e.status),
        code: str(e.code),
        title: str(e.title),
        detail: str(e.detail),
        pointer: str(source.pointer) ?? str(source.parameter),
      },
    ];
  });
}

export function describeServiceError(e: ServiceError): string {
  return [e.title, e.detail].filter((p) => p && p.length > 0).join(': ') || e.code || 'Refused';
}

/**
 * A small client for the search and location endpoints: bearer token, one retry with a fresh token
 * after a 401, one more try for a GET that met a dropped connection or a 429/5xx, every answer parsed
 * with zod. The upload flow's ServiceClient keeps its generic call private, so these endpoints have
 * their own; the token never appears in a message.
 */
export class ServiceApi {
  constructor(
    private readonly environment: () => Promise<ResolvedEnvironment>,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async baseInfo(): Promise<ResolvedEnvironment['info']> {
    return (await this.environment()).info;
  }

  async call<S extends z.ZodType>(spec: ApiCall<S>): Promise<z.infer<S> | null> {
    const env = await this.environment();
    const url = `${env.info.baseUrl}${spec.path}`;
    let freshToken = false;
    let retriedTransient = false;
    for (;;) {
      const token = await env.tokens.accessToken();
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: spec.method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/vnd.api+json, application/json',
            ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        if (spec.method === 'GET' && !retriedTransient) {
          retriedTransient = true;
          await this.sleep(500);
          continue;
        }
        throw new DeskFailure(
          'NETWORK',
          spec.method === 'GET'
            ? `Could not reach the service while ${spec.name}. Check the network connection and try again.`
            : `The connection failed while ${spec.name}; the service may or may not have applied it. Check the network connection, then look at the result before trying again.`,
        );
      }
      if (response.status === 401 && !freshToken) {
        // An expired or revoked token: refused before anything happened, so one retry is safe.
        await response.arrayBuffer().catch(() => undefined);
        env.tokens.invalidate();
        freshToken = true;
        continue;
      }
      if ((response.status === 429 || response.status >= 500) && spec.method === 'GET' && !retriedTransient) {
        await response.arrayBuffer().catch(() => undefined);
        retriedTransient = true;
        await this.sleep(1_000);
        continue;
      }
      if (response.status === 401 || response.status === 403) {
        await response.arrayBuffer().catch(() => undefined);
        throw new DeskFailure(
          'AUTH_FAILED',
          `The service refused access while ${spec.name} (${response.status}). Check the credentials in Settings.`,
          { status: response.status },
        );
      }
      if (!response.ok) {
        const body: unknown = await response.json().catch(() => null);
        const errors = serviceErrors(body);
        const first = errors[0];
        const code =
          response.status === 404
            ? 'NOT_FOUND'
            : response.status === 409
              ? 'CONFLICT'
              : response.status === 429 || response.status >= 500
                ? 'SERVICE_UNAVAILABLE'
                : 'REJECTED';
        throw new DeskFailure(
          code,
          `The service refused ${spec.name} (${response.status})${first ? `: ${describeServiceError(first)}` : '.'}`,
          { status: response.status, errors },
        );
      }
      if (spec.schema === null) {
        await response.arrayBuffer().catch(() => undefined);
        return null;
      }
      let json: unknown;
      try {
        json = await response.json();
      } catch {
        throw new DeskFailure('BAD_RESPONSE', `The service’s answer to ${spec.name} is not JSON.`);
      }
      const parsed = spec.schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue ? ` (${issue.path.map(String).join('.') || 'top'}: ${issue.message})` : '';
        throw new DeskFailure(
          'BAD_RESPONSE',
          `The service’s answer to ${spec.name} has an unexpected shape${where}.`,
        );
      }
      return parsed.data as z.infer<S>;
    }
  }

  /** Like call, for answers that must have a body. */
  async get<S extends z.ZodType>(spec: ApiCall<S> & { schema: S }): Promise<z.infer<S>> {
    return (await this.call(spec)) as z.infer<S>;
  }

  /** Raw bytes from an address (program images); no token, since it is not a service endpoint. */
  async fetchBytes(
    url: string,
    maxBytes: number,
  ): Promise<{ bytes: Uint8Array; contentType: string } | null> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      return null;
    }
    if (!response.ok || !response.body) {
      await response.arrayBuffer().catch(() => undefined);
      return null;
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      return null;
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    return { bytes, contentType: (response.headers.get('content-type') ?? '').split(';')[0]!.trim() };
  }
}
