import type { z } from 'zod';

/** Channels of the location area, spread into `channels` in channels.ts. */
export const locationChannels = {} as const satisfies Record<
  string,
  { request: z.ZodType; response: z.ZodType }
>;
