import { z } from 'zod';
import { uploadEvents } from './uploadEvents';

/** Events pushed from main to the renderer. */
export const events = {
  /** Progress of a long job (import, upload, listing), for progress bars. */
  'job.progress': z.object({
    jobId: z.string(),
    kind: z.string(),
    stage: z.string(),
    done: z.number(),
    total: z.number().nullable(),
    message: z.string().optional(),
  }),
  /** A job changed state. */
  'job.status': z.object({
    jobId: z.string(),
    kind: z.string(),
    status: z.enum(['running', 'succeeded', 'failed', 'cancelled']),
    message: z.string().optional(),
  }),
  /** Settings changed (in another window, or by the CLI). */
  'settings.changed': z.object({ environment: z.string() }),
  /** Team mode: how many uploads wait for approval now (the side bar's badge). */
  'approvals.changed': z.object({ waiting: z.number().int().nonnegative() }),
  /** The service's scheduled maintenance began (until when) or ended (null): follows and refreshes hold. */
  'service.maintenance': z.object({ until: z.string().nullable() }),

  /**
   * Team mode: the team database told of news (an upload submitted, decided, voided or sent, a
   * colleague's bulk moved; `resync` after the app was not listening), already read again here:
   * screens showing uploads or approvals load again.
   */
  'team.news': z.object({ kind: z.string(), uploadId: z.string().nullable() }),
  ...uploadEvents,
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.infer<Events[E]>;
export const eventNames = Object.keys(events) as EventName[];

/** The one IPC channel name events travel on; the payload carries the event's name. */
export const EVENT_CHANNEL = 'desk:event';
