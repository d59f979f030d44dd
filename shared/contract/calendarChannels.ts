import { z } from 'zod';

/** The service's maintenance as the desk holds for it now: null when none. */
export const maintenanceStateSchema = z
  .object({
    /** When the service is expected back (ISO 8601, UTC). */
    until: z.string(),
  })
  .nullable();
export type MaintenanceHoldView = z.infer<typeof maintenanceStateSchema>;

const calendarSchema = z.object({
  /** The maintenance dates the service announced (Saturdays, YYYY-MM-DD, in order). */
  announcedDates: z.array(z.string()),
  maintenance: maintenanceStateSchema,
});
export type ServiceCalendarView = z.infer<typeof calendarSchema>;

/** The service's calendar: the announced maintenance dates (Settings) and the hold in force. */
export const calendarChannels = {
  'calendar.get': { request: z.object({}).strict(), response: calendarSchema },
  /**
   * Replaces the announced dates with these (as typed: one per entry, or several separated by commas
   * or spaces). Refused, nothing saved, when an entry is not a Saturday written YYYY-MM-DD.
   */
  'calendar.save': {
    request: z.object({ dates: z.array(z.string().max(2000)).max(200) }).strict(),
    response: calendarSchema,
  },
} as const;
