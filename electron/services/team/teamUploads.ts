/*
 * Team mode, the upload side: what the preparer's app works out when it submits an upload to the
 * shared database (the bulk file's SHA-256, the facts an approver reviews), and the environment key
 * under which the shared duplicate guard keeps rows. Pure functions: the engine does the calling.
 */
import { createHash } from 'node:crypto';
import type { DonationAttributes } from '../../../shared/donation';
import { count, plural } from '../../../shared/i18n';
import type { CurrencyTotal, ReviewFacts } from './teamTypes';

/**
 * The SHA-256 an approval binds to: for one part, its gzip file's own hash (what `sha256sum` of the
 * file prints); for several, the hash of the parts' hashes (lowercase hex) joined by '\n', in part order.
 */
export function bulkFileSha256(partHashes: readonly string[]): string {
  if (partHashes.length === 0) throw new Error('An upload has at least one part.');
  if (partHashes.length === 1) return (partHashes[0] as string).toLowerCase();
  return createHash('sha256')
    .update(partHashes.map((h) => h.toLowerCase()).join('\n'))
    .digest('hex');
}

/** Where rows are unique in the shared guard (see ServiceInUse in the local guard). */
export function environmentKeyOf(service: { id: string; baseUrl: string; emulated: boolean }): string {
  // The Offline sandbox's address changes with every launch; only its id tells it apart.
  if (service.emulated) return service.id;
  return `${service.id}|${service.baseUrl.replace(/\/+$/, '')}`;
}

/** How many recipients the review page lists. */
export const LARGEST_RECIPIENTS = 10;

/**
 * What an approver sees besides the totals: the month the upload belongs to, the recipients that
 * receive the most (per currency, amounts never added across currencies), how many rows had already
 * gone out and were confirmed to go again, and warnings in plain words.
 */
export function reviewFacts(
  donations: readonly DonationAttributes[],
  options: { createdAt: string; alreadyOut: number; warnings?: readonly string[]; leftOut?: number },
): ReviewFacts {
  const byRecipient = new Map<
    string,
    { recipientId: string; currencyCode: string; amount: number; count: number }
  >();
  for (const d of donations) {
    const recipientId = d.destination.recipientId;
    const key = `${recipientId}\u0000${d.funds.currencyCode}`;
    const sum = byRecipient.get(key) ?? {
      recipientId,
      currencyCode: d.funds.currencyCode,
      amount: 0,
      count: 0,
    };
    sum.amount += d.funds.amount;
    sum.count++;
    byRecipient.set(key, sum);
  }
  const largestRecipients = [...byRecipient.values()]
    .sort(
      (a, b) =>
        b.amount - a.amount ||
        a.currencyCode.localeCompare(b.currencyCode) ||
        a.recipientId.localeCompare(b.recipientId),
    )
    .slice(0, LARGEST_RECIPIENTS);
  const warnings = [...(options.warnings ?? [])];
  if (options.leftOut)
    warnings.push(
      `${count(options.leftOut, 'row')} with errors ${plural(options.leftOut, { one: 'was', other: 'were' })} left out of this upload.`,
    );
  if (options.alreadyOut)
    warnings.push(
      `${count(options.alreadyOut, 'row')} ${plural(options.alreadyOut, { one: 'was', other: 'were' })} already sent before and ${plural(options.alreadyOut, { one: 'goes', other: 'go' })} again on purpose.`,
    );
  return {
    month: options.createdAt.slice(0, 7),
    largestRecipients,
    alreadyOut: options.alreadyOut,
    warnings,
  };
}

/** The upload's totals over all its parts, per currency. */
export function totalsOverParts(parts: ReadonlyArray<{ totals: readonly CurrencyTotal[] }>): CurrencyTotal[] {
  const totals = new Map<string, CurrencyTotal>();
  for (const part of parts) {
    for (const t of part.totals) {
      const sum = totals.get(t.currencyCode) ?? { currencyCode: t.currencyCode, amount: 0, count: 0 };
      sum.amount += t.amount;
      sum.count += t.count;
      totals.set(t.currencyCode, sum);
    }
  }
  return [...totals.values()];
}
