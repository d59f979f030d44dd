import type { Catalogue, PaymentType } from './catalogue';
import type { DonationInput } from './donationRules';
import { recipientShape } from './donationRules';
import { isInDirectory } from './directory';
import { type ErrorObject, errorObject } from './http';
import { createRng, intBetween, seedFrom } from './random';

export type DonationStatus = 'ACCEPTED' | 'INITIATED' | 'IN_PROGRESS' | 'PAID' | 'CLEARED' | 'DECLINED';
export const DONATION_STATUSES: readonly DonationStatus[] = [
  'ACCEPTED',
  'INITIATED',
  'IN_PROGRESS',
  'PAID',
  'CLEARED',
  'DECLINED',
];

export interface TimelineEntry {
  at: number;
  status: DonationStatus;
  errors?: ErrorObject[];
  /** Set while linked to a payable; null when the link is dropped after a failed payment. */
  payable?: PaymentType | null;
  receiptId?: string;
}

const MINUTE = 60_000;

/** Seconds-to-pay and seconds-to-clear by payment type, in virtual minutes [min, max]. */
const PAYMENT_MINUTES: Record<PaymentType, { pay: [number, number]; clear: [number, number] }> = {
  PAYPAL: { pay: [5, 15], clear: [5, 15] },
  EFT: { pay: [20, 40], clear: [30, 60] },
  CHEQUE: { pay: [60, 120], clear: [90, 180] },
};

export interface PlanContext {
  seed: number;
  catalogue: Catalogue;
  paymentFailureRate: number;
  /** Reserves the amount against the program budget; false when it would exceed it. */
  reserveBudget: (currencyCode: string, amount: number, atMs: number) => boolean;
}

function decline(code: string, title: string, detail: string, pointer: string): ErrorObject[] {
  return [errorObject(422, code, title, detail, { pointer })];
}

function paymentTypeFor(input: DonationInput, catalogue: Catalogue): PaymentType {
  const shape = recipientShape(input.destination.recipientId);
  if (shape && shape.kind !== 'portfolio') {
    const cause = catalogue.causeById.get(shape.causeId);
    const account = cause?.accounts.find((a) => a.preferred) ?? cause?.accounts[0];
    if (account) return account.paymentType;
  }
  // Portfolio gifts are pooled and disbursed by the service itself, electronically.
  return 'EFT';
}

/** Why a donation would be declined, judged when it is created; undefined when it will go through. */
function declineReason(input: DonationInput, ctx: PlanContext, atMs: number): ErrorObject[] | undefined {
  const recipientPointer = '/data/attributes/destination/recipientId';
  const recipientId = input.destination.recipientId;
  const shape = recipientShape(recipientId);
  const notFound = decline(
    'RECIPIENT_NOT_FOUND',
    'Recipient not found',
    `No cause, project or portfolio has the id "${recipientId}".`,
    recipientPointer,
  );
  if (!isInDirectory(ctx.catalogue, recipientId)) return notFound;
  const cause = shape && shape.kind !== 'portfolio' ? ctx.catalogue.causeById.get(shape.causeId) : undefined;
  if (cause && !cause.goodStanding) {
    return decline(
      'CAUSE_NOT_IN_GOOD_STANDING',
      'Cause not in good standing',
      `The cause "${cause.id}" cannot currently receive donations.`,
      recipientPointer,
    );
  }
  if (!ctx.reserveBudget(input.funds.currencyCode, input.funds.amount, atMs)) {
    return decline(
      'PROGRAM_BUDGET_EXCEEDED',
      'Program budget exceeded',
      `This donation would exceed the giving program's monthly budget in ${input.funds.currencyCode}.`,
      '/data/attributes/funds/amount',
    );
  }
  return undefined;
}

/**
 * The whole future of a donation, fixed when it is created (records are immutable) and revealed as the
 * virtual clock passes each entry. Timings come from a stream seeded by the emulator seed and donation id.
 */
export function planTimeline(
  id: string,
  input: DonationInput,
  createdAt: number,
  ctx: PlanContext,
): TimelineEntry[] {
  const rng = createRng(seedFrom(ctx.seed, 'donation', id));
  const timeline: TimelineEntry[] = [{ at: createdAt, status: 'ACCEPTED' }];
  let t = createdAt + intBetween(rng, 2, 5) * MINUTE;
  const errors = declineReason(input, ctx, createdAt);
  if (errors) {
    timeline.push({ at: t, status: 'DECLINED', errors });
    return timeline;
  }
  const initiated: TimelineEntry = { at: t, status: 'INITIATED' };
  if (input.donor?.receipted === true) initiated.receiptId = `RCPT-${id.slice(0, 8).toUpperCase()}`;
  timeline.push(initiated);
  const paymentType = paymentTypeFor(input, ctx.catalogue);
  const timing = PAYMENT_MINUTES[paymentType];
  const fails = rng() < ctx.paymentFailureRate;
  const attempts = fails ? 2 : 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    t += intBetween(rng, 5, 15) * MINUTE;
    timeline.push({ at: t, status: 'IN_PROGRESS', payable: paymentType });
    t += intBetween(rng, ...timing.pay) * MINUTE;
    timeline.push({ at: t, status: 'PAID' });
    if (attempt < attempts) {
      // The payment bounced (cheque returned, EFT rejected): back to INITIATED, unlinked from the payable.
      t += intBetween(rng, 10, 30) * MINUTE;
      timeline.push({ at: t, status: 'INITIATED', payable: null });
    }
  }
  t += intBetween(rng, ...timing.clear) * MINUTE;
  timeline.push({ at: t, status: 'CLEARED' });
  return timeline;
}

export interface DonationState {
  status: DonationStatus;
  lastUpdated: number;
  errors?: ErrorObject[];
  payable?: PaymentType;
  receiptId?: string;
}

export function stateAt(timeline: readonly TimelineEntry[], nowMs: number): DonationState {
  const first = timeline[0];
  if (!first) throw new Error('empty timeline');
  const state: DonationState = { status: first.status, lastUpdated: first.at };
  for (const entry of timeline) {
    if (entry.at > nowMs) break;
    state.status = entry.status;
    state.lastUpdated = entry.at;
    if (entry.errors) state.errors = entry.errors;
    if (entry.payable === null) delete state.payable;
    else if (entry.payable) state.payable = entry.payable;
    if (entry.receiptId) state.receiptId = entry.receiptId;
  }
  return state;
}
