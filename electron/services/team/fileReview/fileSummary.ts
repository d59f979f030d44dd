/*
 * What the approver sees of an upload's file, computed from its donations alone: every row with its
 * warnings (the Prepare screen's own checks), count and total per currency, the largest recipients
 * (ordered as the preparer's app orders them, so the two can be compared), and the rows the team
 * already sent (the shared guard's fingerprints, taken as the send gate takes them).
 */
import type { FileRow, FileReview } from '../../../../shared/contract';
import {
  checkFile,
  fingerprintDonation,
  totalsByCurrency,
  validateDonation,
  type DonationAttributes,
} from '../../../../shared/donation';
import { count, plural } from '../../../../shared/i18n';
import { DEFAULT_REFERENCE_KEY, parseReference } from '../../../../shared/mapping';
import type { SentElsewhere } from '../teamTypes';
import { reviewFacts } from '../teamUploads';

export type FileFigures = Omit<Extract<FileReview, { checked: true }>, 'differences' | 'checked'>;

/**
 * The metadata key the preparer's app put its row reference under (`ddRef` unless the workspace
 * named another): the one key whose value is a reference on every row. The shared guard's
 * fingerprints leave it out, so the same gift from two workspaces is one row.
 */
export function referenceKeyOf(donations: readonly DonationAttributes[]): string | null {
  const first = donations[0]?.metadata;
  if (!first) return null;
  const candidates = Object.keys(first).filter((key) =>
    donations.every((d) => parseReference(d.metadata?.[key]) !== undefined),
  );
  if (candidates.includes(DEFAULT_REFERENCE_KEY)) return DEFAULT_REFERENCE_KEY;
  return candidates.length === 1 ? (candidates[0] as string) : null;
}

/** Each donation's fingerprint in the shared guard (see validateWorkspace). */
export function guardFingerprints(donations: readonly DonationAttributes[]): string[] {
  const key = referenceKeyOf(donations);
  const options = key ? { ignoreMetadataKeys: [key] } : {};
  return donations.map((d) => fingerprintDonation(d, options));
}

const donorOf = (d: DonationAttributes): string => {
  const donor = d.donor as { fullName?: unknown; email?: unknown } | undefined;
  if (typeof donor?.fullName === 'string' && donor.fullName.trim()) return donor.fullName.trim();
  if (typeof donor?.email === 'string') return donor.email.trim();
  return '';
};

const KIND_WORDS: Record<string, (n: number) => string> = {
  AMOUNT_UNUSUALLY_HIGH: (n) =>
    `${count(n, 'row')} ${plural(n, { one: 'has', other: 'have' })} an amount at least 10 times this file's usual amount.`,
  DUPLICATE_ROW: (n) =>
    `${count(n, 'row')} ${plural(n, { one: 'is', other: 'are' })} identical to an earlier row.`,
  DUPLICATE_DONOR_GIFT: (n) =>
    `${count(n, 'row')} ${plural(n, { one: 'has', other: 'have' })} the same donor, recipient and amount as an earlier row.`,
};

/**
 * The figures of a file: `sent` answers which of the given fingerprints the team already sent in
 * another upload; `causeName` a cause's name where this computer knows it.
 */
export function fileFigures(
  donations: readonly DonationAttributes[],
  options: {
    createdAt: string;
    sent: ReadonlyMap<string, SentElsewhere>;
    fingerprints: readonly string[];
    causeName?: (recipientId: string) => string | null;
  },
): FileFigures {
  const key = referenceKeyOf(donations);
  const byRow = new Map<number, string[]>();
  const kinds = new Map<string, number>();
  const note = (row: number, message: string) => {
    const list = byRow.get(row);
    if (list) list.push(message);
    else byRow.set(row, [message]);
  };
  let broken = 0;
  donations.forEach((d, i) => {
    const issues = validateDonation(d);
    if (issues.some((x) => x.severity === 'error')) broken++;
    for (const issue of issues) note(i, issue.message);
  });
  for (const issue of checkFile(donations, key ? { ignoreMetadataKeys: [key] } : {})) {
    note(issue.row, issue.message);
    kinds.set(issue.code, (kinds.get(issue.code) ?? 0) + 1);
  }
  let alreadySent = 0;
  const rows: FileRow[] = donations.map((d, i) => {
    const sent = options.sent.get(options.fingerprints[i] ?? '');
    if (sent) alreadySent++;
    const recipientId = d.destination.recipientId;
    return {
      row: i + 1,
      recipientId,
      causeName: options.causeName?.(recipientId) ?? null,
      donor: donorOf(d),
      amount: d.funds.amount,
      currencyCode: d.funds.currencyCode,
      warnings: byRow.get(i) ?? [],
      sentBy: sent ? `${sent.sentBy}${sent.computer ? ` from ${sent.computer}` : ''}` : null,
    };
  });
  const warnings: string[] = [];
  if (broken) {
    warnings.push(
      `${count(broken, 'row')} ${plural(broken, { one: 'breaks', other: 'break' })} the donation rules: the service would refuse ${plural(broken, { one: 'it', other: 'them' })}.`,
    );
  }
  for (const [kind, n] of kinds) warnings.push(KIND_WORDS[kind]?.(n) ?? `${count(n, 'row')}: ${kind}`);
  if (alreadySent) {
    warnings.push(
      `${count(alreadySent, 'row')} ${plural(alreadySent, { one: 'was', other: 'were' })} already sent by the team in another upload.`,
    );
  }
  return {
    rows,
    totals: totalsByCurrency(donations),
    largestRecipients: reviewFacts(donations, { createdAt: options.createdAt, alreadyOut: 0 })
      .largestRecipients,
    warnings,
    alreadySent,
  };
}
