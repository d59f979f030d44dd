import { z } from 'zod';

/** The Offline sandbox's virtual clock, as the app shows it. */
export const sandboxClockSchema = z.object({
  /** The sandbox's own time now (ISO 8601, UTC). */
  now: z.string(),
  /** Virtual seconds per real second. */
  timeScale: z.number().nonnegative(),
});
export type SandboxClock = z.infer<typeof sandboxClockSchema>;

/** Longest single move of the sandbox's clock from the app: a week. */
export const MAX_SANDBOX_ADVANCE_SECONDS = 7 * 86_400;

/**
 * Controls of the Offline sandbox (the built-in emulator). Main refuses them unless the Offline
 * sandbox is the environment in force, so they can never reach Sandbox or Production.
 */
export const sandboxChannels = {
  'sandbox.clock': { request: z.object({}).strict(), response: sandboxClockSchema },
  'sandbox.advanceClock': {
    request: z.object({ seconds: z.number().int().min(1).max(MAX_SANDBOX_ADVANCE_SECONDS) }).strict(),
    response: sandboxClockSchema,
  },
} as const;
