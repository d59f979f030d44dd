import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import type { ChannelInput } from '../../../shared/contract';
import { validateDonation } from '../../../shared/donation';
import { DEFAULT_REFERENCE_KEY, REPLACES_KEY } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import { provesNothingCreated, type ServiceClient } from '../api/serviceClient';
import type { DonationStore, StoredDonation } from './donationStore';
import type { CorrectionGuard } from './ledgerSharing';

type Changes = ChannelInput<'donations.correct'>['changes'];

/** The recipient, amount and currency a create request asks for, when it has them in their place. */
function sentOf(
  attributes: Record<string, unknown>,
): { recipientId: string; amount: number; currencyCode: string } | null {
  const destination = attributes.destination as { recipientId?: unknown } | undefined;
  const funds = attributes.funds as { amount?: unknown; currencyCode?: unknown } | undefined;
  const recipientId = destination?.recipientId;
  const amount = funds?.amount;
  const currencyCode = funds?.currencyCode;
  if (typeof recipientId !== 'string' || typeof currencyCode !== 'string') return null;
  if (typeof amount !== 'number' || !Number.isInteger(amount)) return null;
  return { recipientId, amount, currencyCode };
}

/**
 * POST /donations with the attempt written down (and saved) first. The note is taken back only when
 * the failure proves nothing was made: an unreadable answer (BAD_RESPONSE) or a lost one
 * (AMBIGUOUS) may follow a created donation, so the attempt then stays on record.
 */
export async function createWrittenDown(
  client: ServiceClient,
  store: DonationStore,
  attributes: Record<string, unknown>,
  note: { write(): void; takeBack(): void },
): Promise<DonationResource> {
  note.write();
  await store.save();
  try {
    return await client.createDonation(attributes);
  } catch (e) {
    if (provesNothingCreated(e)) {
      note.takeBack();
      await store.save();
    }
    throw e;
  }
}

/** The declined donation's attributes as a create request, with the changes applied. */
export function correctedAttributes(declined: DonationResource, changes: Changes): Record<string, unknown> {
  const a = declined.attributes;
  const foundationId =
    changes.foundationId === undefined ? a.destination.foundationId : (changes.foundationId ?? undefined);
  const donor = changes.donor === undefined ? (a.donor ?? undefined) : (changes.donor ?? undefined);
  const original = a.metadata ?? {};
  const metadata: Record<string, string> = { ...(changes.metadata ?? original) };
  // The reference pair always follows, so the replacement ties to the same workspace row.
  if (original[DEFAULT_REFERENCE_KEY] !== undefined)
    metadata[DEFAULT_REFERENCE_KEY] = original[DEFAULT_REFERENCE_KEY];
  metadata[REPLACES_KEY] = declined.id;
  return {
    destination: {
      recipientId: changes.recipientId ?? a.destination.recipientId,
      ...(foundationId ? { foundationId } : {}),
    },
    funds: {
      paymentType: a.funds.paymentType,
      currencyCode: changes.currencyCode ?? a.funds.currencyCode,
      amount: changes.amount ?? a.funds.amount,
      ...(a.funds.source !== undefined ? { source: a.funds.source } : {}),
    },
    ...(donor && Object.keys(donor).length > 0 ? { donor } : {}),
    metadata,
  };
}

/**
 * The declined donation, if it may be corrected now: declined, neither replaced nor dismissed, and
 * not waiting on a correction whose answer never came (unless the caller confirms sending again).
 */
export function correctable(store: DonationStore, donationId: string, confirmRetry = false): StoredDonation {
  const declined = store.get(donationId);
  if (!declined) {
    throw new DeskFailure(
      'NOT_FOUND',
      `Donation ${donationId} is not in the list; list the donations first.`,
    );
  }
  if (declined.resource.attributes.state.processingStatus !== 'DECLINED') {
    throw new DeskFailure(
      'NOT_DECLINED',
      'Only a declined donation can be corrected; this one was not declined.',
    );
  }
  const resolution = declined.resolution;
  if (resolution?.kind === 'replaced') {
    throw new DeskFailure(
      'ALREADY_RESOLVED',
      `This donation was already replaced by ${resolution.replacementId}.`,
    );
  }
  if (resolution?.kind === 'dismissed') {
    throw new DeskFailure('ALREADY_RESOLVED', `This donation was dismissed: ${resolution.reason}`);
  }
  if (resolution?.kind === 'replacing' && !confirmRetry) {
    throw new DeskFailure(
      'MAYBE_REPLACED',
      `A correction sent at ${resolution.at} got no answer: the service may have created it. List all donations and look for metadata ${REPLACES_KEY}=${declined.resource.id}; send again only if it is not there.`,
    );
  }
  return declined;
}

/**
 * Sends the replacement of a declined donation (POST /donations) and links the two. The attempt is
 * written down before the POST: if no answer comes back, the declined donation shows "replacing" and
 * a second attempt needs confirmRetry, because the first may have created the gift already.
 */
export async function sendReplacement(
  client: ServiceClient,
  store: DonationStore,
  declined: StoredDonation,
  attributes: Record<string, unknown>,
  row: StoredDonation['row'],
  at: () => string,
): Promise<{ declined: StoredDonation; replacement: StoredDonation }> {
  const before = declined.resolution;
  const sent = sentOf(attributes);
  // Only an answer that proves nothing was made lets the declined donation go back to open.
  const created = await createWrittenDown(client, store, attributes, {
    write: () =>
      store.resolve(declined.resource.id, { kind: 'replacing', at: at(), ...(sent ? { sent } : {}) }),
    takeBack: () => store.resolve(declined.resource.id, before ?? null),
  });
  const now = at();
  const replacement = store.record(created, row, now, { replaces: declined.resource.id });
  const resolved = store.resolve(declined.resource.id, {
    kind: 'replaced',
    at: now,
    replacementId: created.id,
  });
  await store.save();
  return { declined: resolved, replacement };
}

/**
 * Puts a declined donation right with a corrected new one, tied to the declined one's own row. In
 * team mode `guard` claims the correction on the team database first (refused when a colleague
 * holds it), finishes it once the replacement is recorded, and gives it back when the service
 * proves nothing was created.
 */
export async function correctDeclined(
  client: ServiceClient,
  store: DonationStore,
  input: ChannelInput<'donations.correct'>,
  at: () => string,
  guard?: CorrectionGuard,
): Promise<{ declined: StoredDonation; replacement: StoredDonation }> {
  const declined = correctable(store, input.donationId, input.confirmRetry);
  const attributes = correctedAttributes(declined.resource, input.changes);
  const problems = validateDonation(attributes).filter((i) => i.severity === 'error');
  if (problems.length > 0) {
    throw new DeskFailure(
      'INVALID_DONATION',
      `The corrected donation is not valid: ${problems.map((p) => `${p.field || 'donation'}: ${p.message}`).join('; ')}`,
      { issues: problems },
    );
  }
  return guarded(guard, declined.resource.id, () =>
    sendReplacement(client, store, declined, attributes, declined.row, at),
  );
}

/**
 * Team mode: the correction of `declinedId` claimed on the team database around `send` (see
 * CorrectionGuard); alone (no guard), just `send`.
 */
export async function guarded(
  guard: CorrectionGuard | undefined,
  declinedId: string,
  send: () => Promise<{ declined: StoredDonation; replacement: StoredDonation }>,
): Promise<{ declined: StoredDonation; replacement: StoredDonation }> {
  if (!guard) return send();
  await guard.claim(declinedId);
  let done: { declined: StoredDonation; replacement: StoredDonation };
  try {
    done = await send();
  } catch (e) {
    // A lost or unreadable answer may follow a created gift: the claim then stays in progress.
    if (provesNothingCreated(e)) await guard.abandon(declinedId);
    throw e;
  }
  await guard.finish(declinedId, done.replacement.resource.id);
  return done;
}
