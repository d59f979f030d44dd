import type { z } from 'zod';

/** Channels of the search area, spread into `channels` in channels.ts. */
export const searchChannels = {} as const satisfies Record<
  string,
  { request: z.ZodType; response: z.ZodType }
>;
