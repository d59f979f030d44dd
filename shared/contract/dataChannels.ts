import { z } from 'zod';

/**
 * The data folder's database from Settings → Data: the same check and backup as `donation-desk db
 * check` and `db backup`. The backup's file is chosen in main (a save dialog in the desktop app, a
 * dated file in the data folder's backups folder elsewhere): the renderer never names a path.
 */
export const dataChannels = {
  'data.check': {
    request: z.object({}).strict(),
    response: z.object({
      ok: z.boolean(),
      /** The database file checked. */
      path: z.string(),
      schemaVersion: z.number().int(),
      bytes: z.number().int().nonnegative(),
      /** What the integrity check found (at most the first 20); empty when whole. */
      problems: z.array(z.string()),
      /** When damaged: which backup to restore and how; null when whole. */
      advice: z.string().nullable(),
    }),
  },
  'data.backup': {
    request: z.object({}).strict(),
    response: z.discriminatedUnion('written', [
      z.object({ written: z.literal(true), path: z.string(), bytes: z.number().int().nonnegative() }),
      /** The person closed the save dialog: nothing was written. */
      z.object({ written: z.literal(false) }),
    ]),
  },
} as const;
