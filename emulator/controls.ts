import { z } from 'zod';
import { type FaultSettings, defaultFaults, faultsPatchSchema, nextMaintenanceWindow } from './faults';
import { ApiError, readJson, sendJson } from './http';
import { type RequestContext, type Route, route } from './router';

const clockSchema = z
  .object({
    advanceSeconds: z
      .number()
      .min(0)
      .max(10 * 365 * 86_400),
  })
  .strict();

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw new ApiError(
    400,
    result.error.issues.map((issue) => ({
      status: '400',
      code: 'INVALID_CONTROL',
      title: 'Invalid control request',
      detail: issue.message,
      source: { pointer: `/${issue.path.map(String).join('/')}` },
      meta: null,
    })),
  );
}

/**
 * The emulator's mark on its clock's answers: the app offers the clock control for a Custom service
 * on this computer only when its clock answers with this (a real service never sends it).
 */
export const EMULATOR_HEADERS = { 'X-Giving-Service-Emulator': 'donation-desk' };

function clockBody(ctx: RequestContext): unknown {
  return { now: ctx.core.now().toISOString(), timeScale: ctx.core.options.timeScale };
}

function getClock(ctx: RequestContext): void {
  sendJson(ctx.res, 200, clockBody(ctx), 'application/json', EMULATOR_HEADERS);
}

async function postClock(ctx: RequestContext): Promise<void> {
  const body = parse(clockSchema, await readJson(ctx.req));
  ctx.core.advance(body.advanceSeconds);
  sendJson(ctx.res, 200, clockBody(ctx), 'application/json', EMULATOR_HEADERS);
}

function faultsBody(ctx: RequestContext): unknown {
  const window = nextMaintenanceWindow(ctx.core.nowMs(), ctx.core.faults.settings.maintenanceDates);
  return {
    ...ctx.core.faults.settings,
    tokenGeneration: ctx.core.tokenGeneration,
    nextScheduledMaintenance: window && {
      start: new Date(window.start).toISOString(),
      end: new Date(window.end).toISOString(),
    },
  };
}

function getFaults(ctx: RequestContext): void {
  sendJson(ctx.res, 200, faultsBody(ctx), 'application/json');
}

async function postFaults(ctx: RequestContext): Promise<void> {
  const patch = parse(faultsPatchSchema, await readJson(ctx.req));
  const core = ctx.core;
  const base: FaultSettings = patch.reset ? defaultFaults(core.seed) : core.faults.settings;
  const { reset: _reset, revokeTokens, ...settings } = patch;
  const next: FaultSettings = { ...base };
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
  }
  core.faults.update(next);
  if (revokeTokens) core.tokenGeneration += 1;
  core.markDirty();
  sendJson(ctx.res, 200, faultsBody(ctx), 'application/json');
}

function reset(ctx: RequestContext): void {
  ctx.core.reset();
  sendJson(ctx.res, 200, { reset: true, now: ctx.core.now().toISOString() }, 'application/json');
}

/** Sample ids from the seeded directory, so testers know which recipients succeed or are declined. */
function info(ctx: RequestContext): void {
  const { causes, portfolios } = ctx.core.catalogue;
  const good = causes.filter((c) => c.goodStanding);
  const withProject = good.find((c) => c.projects.length > 0);
  sendJson(
    ctx.res,
    200,
    {
      seed: ctx.core.seed,
      recipientCheck: ctx.core.options.recipientCheck ?? 'processing',
      now: ctx.core.now().toISOString(),
      counts: {
        causes: causes.length,
        portfolios: portfolios.length,
        givingOpportunities: ctx.core.catalogue.opportunities.length,
        donations: ctx.core.donations.all.length,
        bulkIntents: ctx.core.bulks.size,
      },
      samples: {
        causesInGoodStanding: good
          .slice(0, 10)
          .map((c) => ({ id: c.id, name: c.name, paymentType: c.accounts[0]?.paymentType })),
        causesNotInGoodStanding: causes.filter((c) => !c.goodStanding).map((c) => c.id),
        project: withProject ? `${withProject.id}/${withProject.projects[0]?.id ?? ''}` : null,
        portfolios: portfolios.slice(0, 5).map((p) => p.id),
        unknownCause: '840-000000000',
      },
    },
    'application/json',
  );
}

export const controlRoutes: Route[] = [
  route('GET', '/_emulator/clock', getClock, 'control'),
  route('POST', '/_emulator/clock', postClock, 'control'),
  route('GET', '/_emulator/faults', getFaults, 'control'),
  route('POST', '/_emulator/faults', postFaults, 'control'),
  route('POST', '/_emulator/reset', reset, 'control'),
  route('GET', '/_emulator/info', info, 'control'),
];
