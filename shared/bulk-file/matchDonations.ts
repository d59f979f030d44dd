import { fingerprintDonation } from '../donation';

/** How a donation found in an error file or a bulk's donation list was tied to an uploaded one. */
export type MatchMethod = 'reference' | 'fingerprint' | 'position' | 'none';

export interface DonationMatch {
  /** Index in the list of found donations given. */
  position: number;
  /** Index of the uploaded donation (order of the uploaded file), when matched. */
  uploadIndex?: number;
  method: MatchMethod;
  /** False for 'position' (a guess from where it sits) and 'none'. */
  certain: boolean;
}

export interface MatchOptions {
  /** The reference metadata key (e.g. ddRef); when both sides carry it the match is certain. */
  referenceKey?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The content that identifies a gift across the service's round trip: recipient, currency, amount,
 * donor and metadata (without the reference key). Left out on purpose: foundationId (the service
 * may choose one when the upload had none), paymentType and source (the same on every row), and
 * response-only fields (state, bulkId, receiptId, payable).
 */
export function matchKey(attributes: unknown, referenceKey?: string): string {
  if (!isObject(attributes)) return fingerprintDonation(attributes);
  const destination = isObject(attributes.destination) ? attributes.destination : {};
  const funds = isObject(attributes.funds) ? attributes.funds : {};
  let metadata = isObject(attributes.metadata) ? attributes.metadata : undefined;
  if (metadata && referenceKey !== undefined && referenceKey in metadata) {
    const { [referenceKey]: _reference, ...rest } = metadata;
    metadata = rest;
  }
  // No metadata and empty metadata are the same gift; likewise for donor.
  if (metadata && Object.keys(metadata).length === 0) metadata = undefined;
  const donor =
    isObject(attributes.donor) && Object.keys(attributes.donor).length > 0 ? attributes.donor : undefined;
  return fingerprintDonation({
    r: destination.recipientId,
    c: funds.currencyCode,
    a: funds.amount,
    d: donor,
    m: metadata,
  });
}

function referenceOf(attributes: unknown, key: string | undefined): string | undefined {
  if (!key || !isObject(attributes) || !isObject(attributes.metadata)) return undefined;
  const value = attributes.metadata[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Ties donations the service returned (an error file's invalid donations, or a bulk's donation list
 * after partial extraction) to the uploaded donations. First by the reference metadata pair, then
 * by content (matchKey); identical donations are paired in order (the first found with the first
 * uploaded not yet taken), so duplicates resolve the same way every time. As a last resort a
 * found donation whose error pointer gives an absolute index `/data/N` is placed at N, marked
 * uncertain. Each uploaded donation is matched at most once.
 */
export function matchDonations(
  found: ReadonlyArray<{ attributes?: unknown; pointerIndex?: number }>,
  uploaded: readonly unknown[],
  options: MatchOptions = {},
): DonationMatch[] {
  const refKey = options.referenceKey;
  const byReference = new Map<string, number>();
  const byContent = new Map<string, number[]>();
  uploaded.forEach((attributes, index) => {
    const ref = referenceOf(attributes, refKey);
    if (ref !== undefined && !byReference.has(ref)) byReference.set(ref, index);
    const key = matchKey(attributes, refKey);
    const list = byContent.get(key);
    if (list) list.push(index);
    else byContent.set(key, [index]);
  });
  const taken = new Set<number>();
  const nextFree = (list: number[] | undefined): number | undefined => {
    if (!list) return undefined;
    while (list.length > 0 && taken.has(list[0] as number)) list.shift();
    return list.shift();
  };

  const matches: DonationMatch[] = found.map((_, position) => ({ position, method: 'none', certain: false }));
  // References first across the whole list, so a content match never steals a referenced row.
  found.forEach((item, position) => {
    const ref = referenceOf(item.attributes, refKey);
    const index = ref !== undefined ? byReference.get(ref) : undefined;
    if (index !== undefined && !taken.has(index)) {
      taken.add(index);
      matches[position] = { position, uploadIndex: index, method: 'reference', certain: true };
    }
  });
  found.forEach((item, position) => {
    if (matches[position]?.method !== 'none' || item.attributes === undefined) return;
    const index = nextFree(byContent.get(matchKey(item.attributes, refKey)));
    if (index !== undefined) {
      taken.add(index);
      matches[position] = { position, uploadIndex: index, method: 'fingerprint', certain: true };
    }
  });
  found.forEach((item, position) => {
    const guess = item.pointerIndex;
    if (matches[position]?.method !== 'none' || guess === undefined) return;
    if (guess < uploaded.length && !taken.has(guess)) {
      taken.add(guess);
      matches[position] = { position, uploadIndex: guess, method: 'position', certain: false };
    }
  });
  return matches;
}
