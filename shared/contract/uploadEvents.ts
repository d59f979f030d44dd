import { z } from 'zod';
import { intentViewSchema } from './uploadChannels';

/** Events of the upload, follow and repair flow, spread into `events` in events.ts. */
export const uploadEvents = {
  /** A step of an upload: preparing (validate, build), compressing, creating the intent, uploading bytes. */
  'upload.progress': z.object({
    /** The workspace being uploaded, so a screen can show progress before upload.start answers. */
    workspaceId: z.string(),
    uploadId: z.string(),
    part: z.number().int().nonnegative(),
    parts: z.number().int().positive(),
    stage: z.enum(['validating', 'building', 'compressing', 'creating-intent', 'uploading', 'uploaded']),
    done: z.number(),
    total: z.number().nullable(),
  }),
  /** An intent changed state (created, uploaded, a new service status, abandoned, corrected). */
  'intent.updated': intentViewSchema,
} as const satisfies Record<string, z.ZodType>;
