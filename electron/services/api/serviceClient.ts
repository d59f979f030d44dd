import type { z } from 'zod';
import { DeskFailure } from '../../../shared/result';
import {
  bulkIntentResponseSchema,
  donationListResponseSchema,
  donationResponseSchema,
  type BulkIntentResource,
  type DonationResource,
} from '../../../shared/bulk-file/serviceShapes';
import type { ResolvedEnvironment } from './resolvedEnvironment';
import { retryDelay, parseRetryAfter } from './backoff';
import { DEFAULT_RETRY, type RetryOptions } from './retryPolicy';
import { failureOf, isTransient, neverSent } from './serviceFailures';
import { safeOrigin } from './tokenClient';
import { buildMultipart, type FileSource } from './multipart';
import { parseDonationList } from './donationListCheck';

export { DEFAULT_RETRY, INTERACTIVE_RETRY, type RetryOptions } from './retryPolicy';
export {
  describeServiceError,
  provesNothingCreated,
  serviceErrors,
  type ServiceError,
} from './serviceFailures';

export interface ServiceClientOptions {
  fetchImpl?: typeof fetch;
  retry?: Partial<RetryOptions>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Per-request time limit. */
  timeoutMs?: number;
}

/** How a call that reached no clear answer ended, for the caller to decide what happened. */
export type UploadOutcome =
  | { kind: 'uploaded' }
  /** 403 from the upload host: address expired, or already used (an earlier attempt may have landed). */
  | { kind: 'refused'; status: number }
  /** Dropped connection or 5xx after the body went out: the file may or may not have arrived. */
  | { kind: 'ambiguous'; reason: string }
  /** 429/503: the host asked to come back later; the file was not taken. */
  | { kind: 'later'; retryAfterMs: number | undefined; status: number }
  | { kind: 'rejected'; status: number; message: string };

const sleepReal = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One call of the service as the search and location services make it (see ServiceClient.request). */
export interface ApiCall<S extends z.ZodType> {
  /** Named in every message, e.g. "updating a location (PATCH /locations/{id})". */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path and query after the base address. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Schema of the answer; null when the answer has no body (204). */
  schema: S | null;
  /** Whether repeating it is harmless; default: GET only. */
  idempotent?: boolean;
}

interface CallSpec {
  /** Named in every message: "creating a bulk intent (POST /donations/bulk-intents)". */
  name: string;
  method: ApiCall<z.ZodType>['method'];
  url: string;
  body?: string;
  /** GETs may be repeated freely; a POST that creates something never blindly. */
  idempotent: boolean;
  /** Parses the answer as `schema.safeParse` would (a faster way to the same result); default: that. */
  parse?: (json: unknown) => z.ZodSafeParseResult<unknown>;
}

/**
 * The giving service as main uses it: bulk uploads, donations, search, causes and locations. Every call carries the bearer token and is
 * retried once with a fresh token after a 401; idempotent calls are retried with backoff on 429,
 * 5xx and dropped connections (honouring Retry-After); a non-idempotent POST is retried only when
 * the answer proves it was not acted on (401, 429, or a connection that never opened) and otherwise
 * fails with code AMBIGUOUS so the caller finds out what happened before doing anything else.
 * Every answer is parsed with zod; the token and signed addresses never appear in a message.
 */
export class ServiceClient {
  private readonly fetchImpl: typeof fetch;
  private readonly retry: RetryOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly timeoutMs: number;

  constructor(
    private readonly environment: () => Promise<ResolvedEnvironment>,
    options: ServiceClientOptions = {},
  ) {
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? sleepReal;
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  async createIntent(): Promise<BulkIntentResource> {
    const env = await this.environment();
    const body = await this.call(
      {
        name: 'creating a bulk intent (POST /donations/bulk-intents)',
        method: 'POST',
        url: `${env.info.baseUrl}/donations/bulk-intents`,
        body: JSON.stringify({ data: { type: 'bulkDonationIntent', attributes: {} } }),
        idempotent: false,
      },
      bulkIntentResponseSchema,
    );
    const intent = body.data;
    if (!intent.attributes.url || !intent.attributes.fields) {
      throw new DeskFailure(
        'BAD_RESPONSE',
        'The service created a bulk intent without an upload address (POST /donations/bulk-intents).',
      );
    }
    return intent;
  }

  async getIntent(id: string): Promise<BulkIntentResource> {
    const env = await this.environment();
    const body = await this.call(
      {
        name: 'reading a bulk intent (GET /donations/bulk-intents/{id})',
        method: 'GET',
        url: `${env.info.baseUrl}/donations/bulk-intents/${encodeURIComponent(id)}`,
        idempotent: true,
      },
      bulkIntentResponseSchema,
    );
    return body.data;
  }

  /** Every donation a bulk created, following links.next until the range is no longer truncated. */
  async listBulkDonations(bulkId: string): Promise<DonationResource[]> {
    const env = await this.environment();
    const all: DonationResource[] = [];
    let url: string | null =
      `${env.info.baseUrl}/donations?${new URLSearchParams({ 'filter[bulk]': bulkId, 'page[size]': '250' })}`;
    const seen = new Set<string>();
    while (url) {
      if (seen.has(url)) {
        throw new DeskFailure('BAD_RESPONSE', 'The donation list (GET /donations) sent the same page twice.');
      }
      seen.add(url);
      const page: z.infer<typeof donationListResponseSchema> = await this.call(
        { name: 'listing a bulk’s donations (GET /donations)', method: 'GET', url, idempotent: true },
        donationListResponseSchema,
      );
      all.push(...page.data);
      const next = page.links?.next;
      url =
        page.meta.page?.rangeTruncated === true && next ? new URL(next, env.info.baseUrl).toString() : null;
    }
    return all;
  }

  /**
   * One page of GET /donations. `first` holds the filters and page size of a new listing; `next` is a
   * links.next address from the previous page (resolved against the base address, as it may be relative).
   * Paging is left to the caller so it can report progress and stop between pages.
   */
  async donationPage(
    request: { first: Record<string, string> } | { next: string },
  ): Promise<{ page: z.infer<typeof donationListResponseSchema>; next: string | null }> {
    const env = await this.environment();
    const url =
      'next' in request
        ? new URL(request.next, env.info.baseUrl).toString()
        : `${env.info.baseUrl}/donations?${new URLSearchParams(request.first)}`;
    const page = await this.call(
      {
        name: 'listing donations (GET /donations)',
        method: 'GET',
        url,
        idempotent: true,
        // Checked in place rather than copied by zod: the same answer (see donationListCheck).
        parse: parseDonationList,
      },
      donationListResponseSchema,
      // Resolved once per page, not again in the call: resolving reads the settings file.
      env,
    );
    const next = page.links?.next;
    return { page, next: page.meta.page?.rangeTruncated === true && next ? next : null };
  }

  /**
   * POST /donations: one post-paid donation. Not retried once it may have reached the service (the
   * caller gets AMBIGUOUS and must look before sending again, or the gift could be made twice).
   */
  async createDonation(attributes: unknown): Promise<DonationResource> {
    const env = await this.environment();
    const body = await this.call(
      {
        name: 'creating a donation (POST /donations)',
        method: 'POST',
        url: `${env.info.baseUrl}/donations`,
        body: JSON.stringify({ data: { type: 'donations', attributes } }),
        idempotent: false,
      },
      donationResponseSchema,
    );
    return body.data;
  }

  async getDonation(id: string): Promise<DonationResource> {
    const env = await this.environment();
    const body = await this.call(
      {
        name: 'reading a donation (GET /donations/{id})',
        method: 'GET',
        url: `${env.info.baseUrl}/donations/${encodeURIComponent(id)}`,
        idempotent: true,
      },
      donationResponseSchema,
    );
    return body.data;
  }

  /**
   * The multipart POST of a bulk file to the intent's upload address: the fields under their own
   * names in the order given, `file` last. One attempt: the caller checks the intent before any other.
   * The file is bytes in memory or a FileSource read from disk as it is sent (a part's file is never
   * read whole for its upload).
   */
  async uploadFile(
    url: string,
    fields: Record<string, string>,
    file: Uint8Array | FileSource,
    onBytes?: (sent: number, total: number) => void,
  ): Promise<UploadOutcome> {
    const body = buildMultipart(Object.entries(fields), {
      field: 'file',
      fileName: 'donations.json.gz',
      contentType: 'application/gzip',
      data: file,
    });
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': body.contentType, 'content-length': String(body.length) },
        body: body.stream(onBytes),
        duplex: 'half',
        signal: AbortSignal.timeout(Math.max(this.timeoutMs, 10 * 60_000)),
      } as RequestInit);
    } catch (error) {
      if (neverSent(error)) return { kind: 'later', retryAfterMs: undefined, status: 0 };
      return { kind: 'ambiguous', reason: 'the connection to the upload address closed before an answer' };
    }
    await response.arrayBuffer().catch(() => undefined);
    if (response.status === 204 || response.status === 200 || response.status === 201)
      return { kind: 'uploaded' };
    if (response.status === 403) return { kind: 'refused', status: 403 };
    if (response.status === 429 || response.status === 503) {
      return {
        kind: 'later',
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
        status: response.status,
      };
    }
    if (response.status >= 500)
      return { kind: 'ambiguous', reason: `the upload address answered ${response.status}` };
    return {
      kind: 'rejected',
      status: response.status,
      message: `The upload address ${safeOrigin(url)} refused the file (${response.status}).`,
    };
  }

  /**
   * Downloads an error file from its signed, time-limited address (no bearer token: it is another
   * host). Returns null on 403, meaning the address lapsed and a fresh one must be read from the intent.
   */
  async baseInfo(): Promise<ResolvedEnvironment['info']> {
    return (await this.environment()).info;
  }

  /**
   * Any endpoint of the service (search, causes, locations): the same token handling, retries and
   * checks as the upload calls. Answers null when the schema is null (no body expected).
   */
  async request<S extends z.ZodType>(spec: ApiCall<S>): Promise<z.infer<S> | null> {
    const env = await this.environment();
    return this.call(
      {
        name: spec.name,
        method: spec.method,
        url: `${env.info.baseUrl}${spec.path}`,
        ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
        idempotent: spec.idempotent ?? spec.method === 'GET',
      },
      spec.schema,
    );
  }

  /** Like request, for answers that must have a body. */
  async get<S extends z.ZodType>(spec: ApiCall<S> & { schema: S }): Promise<z.infer<S>> {
    return (await this.request(spec)) as z.infer<S>;
  }

  /**
   * Bytes from a public address (program images): no token, since it is not a service endpoint, no
   * redirects, and nothing larger than maxBytes. Null when it cannot be had.
   */
  async fetchPublicBytes(
    url: string,
    maxBytes: number,
  ): Promise<{ bytes: Uint8Array; contentType: string } | null> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
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

  async downloadErrorFile(href: string): Promise<Buffer | null> {
    for (let attempt = 0; ; attempt++) {
      let response: Response | null = null;
      try {
        response = await this.fetchImpl(href, { method: 'GET', signal: AbortSignal.timeout(this.timeoutMs) });
      } catch {
        response = null;
      }
      if (response && response.ok) return Buffer.from(await response.arrayBuffer());
      if (response?.status === 403) {
        await response.arrayBuffer().catch(() => undefined);
        return null;
      }
      const retryable = !response || isTransient(response.status);
      if (!retryable || attempt + 1 >= this.retry.attempts) {
        throw new DeskFailure(
          response ? 'SERVICE_UNAVAILABLE' : 'NETWORK',
          `Downloading the error file from ${safeOrigin(href)} failed${response ? ` (${response.status})` : ''}. Try again later.`,
        );
      }
      const after = response ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
      await response?.arrayBuffer().catch(() => undefined);
      await this.sleep(retryDelay(attempt, this.retry, after, this.random));
    }
  }

  private async call<S extends z.ZodType>(
    spec: CallSpec,
    schema: S | null,
    resolved?: ResolvedEnvironment,
  ): Promise<z.infer<S>> {
    const env = resolved ?? (await this.environment());
    let refreshedToken = false;
    for (let attempt = 0; ; attempt++) {
      const token = await env.tokens.accessToken();
      let response: Response;
      try {
        response = await this.fetchImpl(spec.url, {
          method: spec.method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/vnd.api+json, application/json',
            ...(spec.body !== undefined ? { 'content-type': 'application/vnd.api+json' } : {}),
          },
          ...(spec.body !== undefined ? { body: spec.body } : {}),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        // No answer at all during a window of the calendar: the maintenance, not a failure.
        const held = env.maintenance?.failure({ status: 0 });
        if (held) throw held;
        const safeToRepeat = spec.idempotent || neverSent(error);
        if (!safeToRepeat) {
          throw new DeskFailure(
            'AMBIGUOUS',
            `The connection closed while ${spec.name}; the service may or may not have acted on it.`,
          );
        }
        if (attempt + 1 >= this.retry.attempts) {
          throw new DeskFailure(
            'NETWORK',
            `Could not reach the service at ${safeOrigin(env.info.baseUrl)} while ${spec.name}. Check the network connection; the work resumes when it is back.`,
          );
        }
        await this.sleep(retryDelay(attempt, this.retry, undefined, this.random));
        continue;
      }

      if (response.status === 401 && !refreshedToken) {
        // A revoked or expired token: the service refused before acting, so one retry with a new one is safe.
        await response.arrayBuffer().catch(() => undefined);
        env.tokens.invalidate();
        refreshedToken = true;
        attempt--;
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
      const retryable = isTransient(response.status);
      if (retryable) {
        const after = parseRetryAfter(response.headers.get('retry-after'));
        const { errors, message } = await failureOf(response);
        // The scheduled maintenance: the platform is offline and did nothing; no retries, a hold.
        const held = env.maintenance?.failure({
          status: response.status,
          code: errors[0]?.code,
          retryAfterMs: after,
        });
        if (held) throw held;
        // 429 is a refusal before any work; a 5xx to a POST may have come after the work was done.
        const safeToRepeat = spec.idempotent || response.status === 429;
        if (!safeToRepeat) {
          throw new DeskFailure(
            'AMBIGUOUS',
            `The service answered ${response.status} while ${spec.name}; it may or may not have acted on it.`,
            { status: response.status },
          );
        }
        if (attempt + 1 >= this.retry.attempts) {
          throw new DeskFailure(
            'SERVICE_UNAVAILABLE',
            `The service kept answering ${response.status} while ${spec.name}${message ? ` (${message})` : ''}. Try again later; the work resumes by itself.`,
            { status: response.status },
          );
        }
        await this.sleep(retryDelay(attempt, this.retry, after, this.random));
        continue;
      }
      // An answer that is not a 5xx: the service is there, whatever hold there was is over.
      env.maintenance?.answered();
      if (!response.ok) {
        const { errors, message } = await failureOf(response);
        throw new DeskFailure(
          response.status === 404 ? 'NOT_FOUND' : response.status === 409 ? 'CONFLICT' : 'REJECTED',
          `The service refused ${spec.name} (${response.status})${message ? `: ${message}` : '.'}`,
          { status: response.status, errors },
        );
      }
      if (schema === null) {
        await response.arrayBuffer().catch(() => undefined);
        return null as z.infer<S>;
      }
      let json: unknown;
      try {
        json = await response.json();
      } catch {
        throw new DeskFailure('BAD_RESPONSE', `The service’s answer to ${spec.name} is not JSON.`);
      }
      const parsed = spec.parse ? spec.parse(json) : schema.safeParse(json);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        const where = first ? ` (${first.path.map(String).join('.') || 'top'}: ${first.message})` : '';
        throw new DeskFailure(
          'BAD_RESPONSE',
          `The service’s answer to ${spec.name} has an unexpected shape${where}.`,
        );
      }
      return parsed.data as z.infer<S>;
    }
  }
}
