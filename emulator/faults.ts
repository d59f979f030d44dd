import { z } from 'zod';
import { createRng } from './random';

const rate = z.number().min(0).max(1);

/** POST /_emulator/faults body: every field optional; given fields replace the current setting. */
export const faultsPatchSchema = z
  .object({
    reset: z.boolean().optional(),
    seed: z.number().int().optional(),
    error500Rate: rate.optional(),
    error503Rate: rate.optional(),
    error429Rate: rate.optional(),
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    dropRate: rate.optional(),
    revokeTokens: z.boolean().optional(),
    expireUploadUrls: z.boolean().optional(),
    partialExtractionFailure: z
      .object({ afterDonations: z.number().int().min(0) })
      .nullable()
      .optional(),
    maintenance: z.enum(['off', 'scheduled', 'on']).optional(),
    paymentFailureRate: rate.optional(),
    budgetMinorUnits: z.number().int().min(0).optional(),
    maxUploadBytes: z.number().int().min(1).optional(),
  })
  .strict();

export type FaultsPatch = z.infer<typeof faultsPatchSchema>;

export interface FaultSettings {
  seed: number;
  error500Rate: number;
  error503Rate: number;
  error429Rate: number;
  retryAfterSeconds: number;
  latencyMs: number;
  dropRate: number;
  expireUploadUrls: boolean;
  partialExtractionFailure: { afterDonations: number } | null;
  maintenance: 'off' | 'scheduled' | 'on';
  paymentFailureRate: number;
  budgetMinorUnits: number;
  maxUploadBytes: number;
}

export function defaultFaults(seed: number): FaultSettings {
  return {
    seed,
    error500Rate: 0,
    error503Rate: 0,
    error429Rate: 0,
    retryAfterSeconds: 2,
    latencyMs: 0,
    dropRate: 0,
    expireUploadUrls: false,
    partialExtractionFailure: null,
    maintenance: 'off',
    paymentFailureRate: 0.05,
    budgetMinorUnits: 1_000_000_000,
    maxUploadBytes: 200 * 1024 * 1024,
  };
}

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'drop' }
  | {
      kind: 'status';
      status: 500 | 503 | 429;
      retryAfter?: number;
      code: string;
      title: string;
      detail: string;
    };

/**
 * Draws one number per request from a stream seeded by the fault seed, so a given sequence of
 * requests meets the same faults on every run. The stream restarts whenever the faults change.
 */
export class FaultInjector {
  private rng: () => number;

  constructor(public settings: FaultSettings) {
    this.rng = createRng(settings.seed);
  }

  update(settings: FaultSettings): void {
    this.settings = settings;
    this.rng = createRng(settings.seed);
  }

  decide(nowMs: number): FaultDecision {
    const s = this.settings;
    const window = maintenanceWindowAt(nowMs, s.maintenance);
    if (window) {
      return {
        kind: 'status',
        status: 503,
        retryAfter: Math.max(1, Math.ceil((window.end - nowMs) / 1000)),
        code: 'SCHEDULED_MAINTENANCE',
        title: 'Scheduled maintenance',
        detail: `The platform is offline for scheduled maintenance until ${new Date(window.end).toISOString()}.`,
      };
    }
    if (s.dropRate + s.error500Rate + s.error503Rate + s.error429Rate === 0) return { kind: 'none' };
    const draw = this.rng();
    let edge = s.dropRate;
    if (draw < edge) return { kind: 'drop' };
    edge += s.error500Rate;
    if (draw < edge) {
      return {
        kind: 'status',
        status: 500,
        code: 'INTERNAL_ERROR',
        title: 'Internal server error',
        detail: 'Injected fault.',
      };
    }
    edge += s.error503Rate;
    if (draw < edge) {
      return {
        kind: 'status',
        status: 503,
        retryAfter: s.retryAfterSeconds,
        code: 'SERVICE_UNAVAILABLE',
        title: 'Service unavailable',
        detail: 'Injected fault; retry after the Retry-After delay.',
      };
    }
    edge += s.error429Rate;
    if (draw < edge) {
      return {
        kind: 'status',
        status: 429,
        retryAfter: s.retryAfterSeconds,
        code: 'TOO_MANY_REQUESTS',
        title: 'Too many requests',
        detail: 'Injected rate limit; retry after the Retry-After delay.',
      };
    }
    return { kind: 'none' };
  }
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 2024-01-06 was a Saturday; windows fall on every fifth Saturday counted from it. */
const FIRST_WINDOW_SATURDAY_UTC = Date.UTC(2024, 0, 6);

/** UTC offset of Mountain Time (America/Denver) at an instant, in ms, so daylight saving is honoured. */
function mountainOffsetMs(ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Denver',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? '0');
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The scheduled windows: Saturdays 18:00–21:00 Mountain Time, every fifth week. The spec's window is
 * 18:00–24:00 with downtime "typically less than half"; we take the first three hours.
 */
export function windowForSaturday(saturdayUtcMidnight: number): { start: number; end: number } {
  const localStart = saturdayUtcMidnight + 18 * HOUR;
  const start = localStart - mountainOffsetMs(localStart);
  return { start, end: start + 3 * HOUR };
}

export function nextMaintenanceWindow(nowMs: number): { start: number; end: number } {
  const weeks = Math.floor((nowMs - FIRST_WINDOW_SATURDAY_UTC) / WEEK);
  let cycle = Math.floor(weeks / 5) * 5;
  for (;;) {
    const window = windowForSaturday(FIRST_WINDOW_SATURDAY_UTC + cycle * WEEK);
    if (window.end > nowMs) return window;
    cycle += 5;
  }
}

export function maintenanceWindowAt(
  nowMs: number,
  mode: FaultSettings['maintenance'],
): { start: number; end: number } | undefined {
  if (mode === 'on') return { start: nowMs, end: nowMs + HOUR };
  if (mode === 'off') return undefined;
  const window = nextMaintenanceWindow(nowMs);
  return window.start <= nowMs && nowMs < window.end ? window : undefined;
}
