import type { z } from 'zod';

/** Events of the upload, follow and repair flow, spread into `events` in events.ts. */
export const uploadEvents = {} as const satisfies Record<string, z.ZodType>;
