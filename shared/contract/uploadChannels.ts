import { z } from 'zod';

/**
 * Channels of the upload, follow and repair flow (bulk intents, ledger, error files).
 * Spread into `channels` in channels.ts.
 */
export const uploadChannels = {} as const satisfies Record<
  string,
  { request: z.ZodType; response: z.ZodType }
>;
