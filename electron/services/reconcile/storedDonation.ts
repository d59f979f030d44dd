/*
 * What the store keeps of a donation (the service's last answer, the states seen, the row it came
 * from, how a declined one was resolved), and the file format of version 0.1.
 */
import { z } from 'zod';
import { donationResourceSchema, type DonationResource } from '../../../shared/bulk-file/serviceShapes';
import {
  donationRowSchema,
  historyEntrySchema,
  resolutionSchema,
} from '../../../shared/contract/reconcileChannels';
import { REPLACES_KEY, SINGLE_KEY } from '../../../shared/mapping';

export type DonationRowLink = z.infer<typeof donationRowSchema>;

const storedDonationSchema = z.object({
  resource: donationResourceSchema,
  history: z.array(historyEntrySchema),
  row: donationRowSchema.nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  // Defaults keep files written before corrections existed readable.
  resolution: resolutionSchema.nullable().default(null),
  replaces: z.string().nullable().default(null),
});
export type StoredDonation = z.infer<typeof storedDonationSchema>;

/** A single donation from the form: written before the POST, its id added once the service answers. */
const singleAttemptSchema = z.object({
  clientRef: z.string(),
  at: z.string(),
  donationId: z.string().nullable(),
});
export type SingleAttempt = z.infer<typeof singleAttemptSchema>;

export const storeFileSchema = z.object({
  version: z.literal(1),
  lastRefreshAt: z.string().nullable(),
  donations: z.array(storedDonationSchema),
  singles: z.array(singleAttemptSchema).default([]),
});

/**
 * Whether a donation carries one of the app's own metadata pairs for donations it sends one at a
 * time: a correction (the declined donation it replaces) or a single donation from the form.
 */
export function markedByThisApp(resource: DonationResource): boolean {
  const metadata = resource.attributes.metadata ?? {};
  return metadata[REPLACES_KEY] !== undefined || metadata[SINGLE_KEY] !== undefined;
}

export const FINAL_DONATION_STATES = new Set(['CLEARED', 'DECLINED']);

export type StoredStatus = StoredDonation['history'][number]['state'];
