import { DeskFailure } from '../../../shared/result';

/**
 * Answers worth asking again: too many requests, and server errors other than "not implemented"
 * (501) and "HTTP version not supported" (505), which say the same every time.
 */
export const isTransient = (status: number): boolean =>
  status === 429 || (status >= 500 && status !== 501 && status !== 505);

/** Connection errors that prove the request never left (nothing can have happened at the service). */
export function neverSent(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'].includes(code);
}

/** One JSON:API error the service reported, kept so a caller can map it back to a row and a cell. */
export interface ServiceError {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  pointer?: string;
}

/** The JSON:API error list of a failure body (one object or an array); empty when it has none. */
export function serviceErrors(body: unknown): ServiceError[] {
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

/** A failure body's errors and the first one in words (never the raw body). */
export async function failureOf(response: Response): Promise<{ errors: ServiceError[]; message: string }> {
  const body: unknown = await response.json().catch(() => null);
  const errors = serviceErrors(body);
  return { errors, message: errors[0] ? describeServiceError(errors[0]).slice(0, 300) : '' };
}

/** Failures of a POST that prove the service created nothing; AMBIGUOUS and BAD_RESPONSE prove nothing. */
const NOTHING_CREATED = new Set([
  'REJECTED',
  'CONFLICT',
  'NOT_FOUND',
  'AUTH_FAILED',
  'NETWORK',
  'SERVICE_UNAVAILABLE',
  // The platform was offline for its scheduled maintenance: it acted on nothing.
  'MAINTENANCE',
]);

export function provesNothingCreated(e: unknown): boolean {
  return e instanceof DeskFailure && NOTHING_CREATED.has(e.code);
}
