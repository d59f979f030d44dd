import type { ChannelInput } from '../../../shared/contract';
import { validateDonation } from '../../../shared/donation';
import { SINGLE_KEY, checkSingleDonation } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import type { ServiceClient } from '../api/serviceClient';
import { createWrittenDown } from './corrections';
import type { DonationStore, StoredDonation } from './donationStore';

/**
 * One donation from the form, never two: main checks the form with the row rules whatever the
 * window said, writes the attempt down before the POST, and answers a form sent again with the
 * donation it already made. After an answer that never came, sending again needs confirmRetry.
 */
export async function createSingleDonation(
  client: ServiceClient,
  store: DonationStore,
  input: ChannelInput<'donations.create'>,
  at: () => string,
): Promise<{ stored: StoredDonation; created: boolean }> {
  const attempt = store.single(input.clientRef);
  if (attempt?.donationId) {
    const made = store.get(attempt.donationId);
    if (made) return { stored: made, created: false };
  }
  if (attempt && !attempt.donationId && !input.confirmRetry) {
    throw new DeskFailure(
      'MAYBE_CREATED',
      `This donation was sent at ${attempt.at} and no answer came back: the service may have created it. Refresh Reconcile and look for metadata ${SINGLE_KEY}=${input.clientRef}; send again only if it is not there.`,
    );
  }
  const check = checkSingleDonation(
    { fields: input.form.fields, metadata: input.form.metadata },
    input.numberStyle ? { numberStyle: input.numberStyle } : {},
  );
  if (!check.ok) {
    const errors = check.issues.filter((i) => i.severity === 'error');
    throw new DeskFailure(
      'INVALID_DONATION',
      `The donation is not valid: ${errors.map((e) => e.message).join(' ')}`,
      { issues: errors },
    );
  }
  const attributes = {
    ...check.donation,
    metadata: { ...check.donation.metadata, [SINGLE_KEY]: input.clientRef },
  };
  // The app's own pair counts against the 100 the service allows.
  const problems = validateDonation(attributes).filter((i) => i.severity === 'error');
  if (problems.length > 0) {
    throw new DeskFailure(
      'INVALID_DONATION',
      `The donation is not valid: ${problems.map((p) => p.message).join(' ')}`,
      { issues: problems },
    );
  }
  const created = await createWrittenDown(client, store, attributes, {
    write: () => store.putSingle({ clientRef: input.clientRef, at: at(), donationId: null }),
    takeBack: () => store.dropSingle(input.clientRef),
  });
  const now = at();
  const stored = store.record(created, null, now);
  store.putSingle({ clientRef: input.clientRef, at: now, donationId: created.id });
  await store.save();
  return { stored, created: true };
}
