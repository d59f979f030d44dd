import { z } from 'zod';
import { checkAnnouncedDates, endOfMountainDay, expectedMaintenance } from '../shared/service-calendar';
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
    /** The Saturdays (YYYY-MM-DD) of the scheduled windows; empty: every five weeks (see nextMaintenanceWindow). */
    maintenanceDates: z
      .array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/))
      .max(200)
      .refine((dates) => checkAnnouncedDates(dates).problems.length === 0, {
        message: 'maintenance dates must be Saturdays written YYYY-MM-DD',
      })
      .optional(),
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
  maintenanceDates: string[];
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
    maintenanceDates: [],
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
    const window = maintenanceWindowAt(nowMs, s.maintenance, s.maintenanceDates);
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

/**
 * The scheduled windows, as the service's interface document states them: Saturday 18:00–24:00
 * Mountain Time (America/Denver, daylight saving from the platform's time zone data), on the dates in
 * `maintenanceDates` when any are set, else every five weeks counted from the service's last
 * documented release date (the same guess the desk makes without announced dates). The spec says the
 * downtime is "typically less than half" of the window; the emulator is down for all of it, the
 * longest a client must hold.
 */
export function nextMaintenanceWindow(
  nowMs: number,
  dates: readonly string[] = [],
): { start: number; end: number } | null {
  const window = expectedMaintenance(new Date(nowMs), dates);
  return window ? { start: window.start.getTime(), end: window.end.getTime() } : null;
}

/** `on`: down from now until 24:00 Mountain Time (the end of the service's day), as a window would end. */
export function maintenanceWindowAt(
  nowMs: number,
  mode: FaultSettings['maintenance'],
  dates: readonly string[] = [],
): { start: number; end: number } | undefined {
  if (mode === 'on') return { start: nowMs, end: endOfMountainDay(new Date(nowMs)).getTime() };
  if (mode === 'off') return undefined;
  const window = nextMaintenanceWindow(nowMs, dates);
  return window && window.start <= nowMs && nowMs < window.end ? window : undefined;
}
