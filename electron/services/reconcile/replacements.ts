import type { DonationView } from '../../../shared/contract/reconcileChannels';
import { codeWord, count, plural, withCode } from '../../../shared/i18n';
import { intentStateSchema } from '../../../shared/contract/uploadChannels';
import type { WorkspaceRow } from '../../../shared/contract';
import { minorToMajorString } from '../../../shared/amounts';
import { DEFAULT_REFERENCE_KEY, REPLACES_KEY, SINGLE_KEY, type MappingTarget } from '../../../shared/mapping';
import type { WorkspaceMapping } from '../../../shared/workspace';
import { DeskFailure } from '../../../shared/result';
import type { StoredDonation } from './donationStore';
import type { LedgerSummaryView } from './ledgerView';

export type InUpload = NonNullable<DonationView['inUpload']>;

/** Intent states in which a part's rows are on their way or done: the replacement is not free to redo. */
const MOVING: ReadonlySet<string> = new Set(
  intentStateSchema.options.filter((state) => state !== 'ERROR' && state !== 'abandoned'),
);

/**
 * Declined donations whose replacement is in an upload now, from the ledger: the upload lists the
 * row that replaces each one. A row stops holding its declined donation when its upload was stopped,
 * or its part's last bulk ended in ERROR without a donation for it and no corrected upload took it
 * on (the correcting upload lists the row itself), or the part was abandoned for good.
 */
export function replacementsInUploads(ledger: LedgerSummaryView, environment: string): Map<string, InUpload> {
  const found = new Map<string, InUpload>();
  for (const group of ledger.groups) {
    if (group.environment !== environment || group.stopped || group.replaces.length === 0) continue;
    for (const { rowKey, donationId } of group.replaces) {
      const part = group.parts.find((p) => (p.rowKeys ?? p.replacedRowKeys ?? []).includes(rowKey));
      if (!part) continue;
      const attempts = ledger.intents.filter((i) => i.groupId === group.id && i.part === part.index);
      const last = attempts.at(-1);
      const holds =
        !last ||
        MOVING.has(last.state) ||
        (last.state === 'ERROR' && (last.donationRowKeys ?? []).includes(rowKey));
      if (!holds) continue;
      found.set(donationId, {
        uploadId: group.id,
        workspaceId: group.workspaceId,
        workspaceName: group.workspaceName,
        createdAt: group.createdAt,
      });
    }
  }
  return found;
}

/**
 * Whether rows of a new upload may replace these declined donations: each must be a declined
 * donation this app has listed, still open (not replaced, being replaced one by one, or dismissed),
 * in no other upload, and named by one row only. Throws one failure that names every row at fault.
 */
export function checkReplacementRows(
  rows: ReadonlyArray<{ rowKey: number; rowNumber: number | null; donationId: string }>,
  donations: (id: string) => StoredDonation | undefined,
  inUploads: Map<string, InUpload>,
): void {
  const problems: string[] = [];
  const seen = new Map<string, number | null>();
  for (const row of rows) {
    const where = row.rowNumber !== null ? `Row ${row.rowNumber}` : `New row ${row.rowKey + 1}`;
    const id = row.donationId;
    const earlier = seen.get(id);
    if (seen.has(id)) {
      problems.push(`${where} replaces donation ${id}, as row ${earlier ?? '(new)'} does; keep one of them.`);
      continue;
    }
    seen.set(id, row.rowNumber);
    const stored = donations(id);
    if (!stored || stored.resource.attributes.state.processingStatus !== 'DECLINED') {
      problems.push(`${where} replaces ${id}, which is not a declined donation in Reconcile's list.`);
      continue;
    }
    const resolution = stored.resolution;
    if (resolution?.kind === 'replaced') {
      problems.push(`${where}: donation ${id} was already replaced by ${resolution.replacementId}.`);
    } else if (resolution?.kind === 'dismissed') {
      problems.push(`${where}: donation ${id} was dismissed (${resolution.reason}).`);
    } else if (resolution?.kind === 'replacing') {
      problems.push(
        `${where}: a correction of ${id} sent one by one at ${resolution.at} got no answer and may exist; settle it in Reconcile first.`,
      );
    } else {
      const upload = inUploads.get(id);
      if (upload) {
        problems.push(
          `${where}: donation ${id} is already being replaced by the upload of “${upload.workspaceName}” (${upload.createdAt.slice(0, 10)}).`,
        );
      }
    }
  }
  if (problems.length > 0) {
    throw new DeskFailure(
      'REPLACEMENT_REFUSED',
      `${count(problems.length, 'row')} cannot replace ${plural(problems.length, { one: 'its', other: 'their' })} declined donation. ${problems.slice(0, 5).join(' ')}${problems.length > 5 ? ' …' : ''} Remove ${plural(problems.length, { one: 'that row', other: 'those rows' })} or clear ${plural(problems.length, { one: 'its', other: 'their' })} ${REPLACES_KEY} cell.`,
      { problems },
    );
  }
}

/** The sheet a corrections workspace starts from: its columns, rows and mapping. */
export interface CorrectionSheet {
  headers: string[];
  rows: WorkspaceRow[];
  mapping: WorkspaceMapping;
}

const FIELD_COLUMNS: ReadonlyArray<[header: string, target: MappingTarget | null]> = [
  ['Replaces donation', `metadata.${REPLACES_KEY}`],
  ['Declined because', null],
  ['Recipient ID', 'recipientId'],
  ['Foundation ID', 'foundationId'],
  ['Amount', 'amount'],
  ['Currency', 'currencyCode'],
  ['Donor name', 'donor.fullName'],
  ['Donor email', 'donor.email'],
  ['Receipted', 'donor.receipted'],
  ['Address line 1', 'donor.address.line1'],
  ['Address line 2', 'donor.address.line2'],
  ['City', 'donor.address.city'],
  ['State', 'donor.address.state'],
  ['ZIP', 'donor.address.zip'],
  ['Country', 'donor.address.country'],
];

/** The app's own pairs are not the user's metadata: the new workspace makes its own reference. */
const OWN_KEYS = new Set([DEFAULT_REFERENCE_KEY, REPLACES_KEY, SINGLE_KEY]);

const ATTRIBUTE_WORDS: Record<string, string> = {
  'destination.recipientId': 'Recipient',
  'destination.foundationId': 'Foundation',
  'funds.amount': 'Amount',
  'funds.currencyCode': 'Currency',
};

/** One decline's reasons in plain words, with the attribute each names and the service's code. */
export function declineReasons(stored: StoredDonation): string {
  const errors = stored.resource.attributes.state.errors ?? [];
  if (errors.length === 0) return 'Declined (the service gave no reason)';
  return errors
    .map((e) => {
      const field = (e.source?.pointer ?? '').replace(/^\/data\/attributes\//, '').replace(/\//g, '.');
      const attribute = ATTRIBUTE_WORDS[field] ?? field;
      // The code's plain words when the app knows them, else the service's own title; the code kept.
      const words = (e.code ? codeWord(e.code) : '') || e.title || 'Declined';
      return `${attribute ? `${attribute}: ` : ''}${e.code ? withCode(words, e.code) : words}${e.detail ? ` — ${e.detail}` : ''}`;
    })
    .join('; ');
}

/**
 * Declined donations as a sheet to fix: one row each with every attribute in its own column (the
 * amount in major units, written exactly), the reasons beside them, and the declined id mapped to
 * metadata ddReplaces so the upload and the ledger know what each row replaces.
 */
export function correctionSheet(declined: readonly StoredDonation[]): CorrectionSheet {
  const metadataKeys: string[] = [];
  for (const d of declined) {
    for (const key of Object.keys(d.resource.attributes.metadata ?? {})) {
      if (!OWN_KEYS.has(key) && !metadataKeys.includes(key)) metadataKeys.push(key);
    }
  }
  const taken = new Set(FIELD_COLUMNS.map(([h]) => h.toLowerCase()));
  const metadataHeaders = metadataKeys.map((key) =>
    taken.has(key.toLowerCase()) ? `${key} (metadata)` : key,
  );
  const headers = [...FIELD_COLUMNS.map(([h]) => h), ...metadataHeaders];
  const columns: Record<string, MappingTarget> = {};
  for (const [header, target] of FIELD_COLUMNS) if (target) columns[header] = target;
  metadataKeys.forEach((key, i) => (columns[metadataHeaders[i] as string] = `metadata.${key}`));
  const rows: WorkspaceRow[] = declined.map((d, key) => {
    const a = d.resource.attributes;
    const donor = a.donor;
    const address = donor?.address;
    const receipted = donor?.receipted === undefined ? '' : donor.receipted ? 'yes' : 'no';
    const cells = [
      d.resource.id,
      declineReasons(d),
      a.destination.recipientId,
      a.destination.foundationId ?? '',
      minorToMajorString(a.funds.amount, a.funds.currencyCode),
      a.funds.currencyCode,
      donor?.fullName ?? '',
      donor?.email ?? '',
      receipted,
      address?.line1 ?? '',
      address?.line2 ?? '',
      address?.city ?? '',
      address?.state ?? '',
      address?.zip ?? '',
      address?.country ?? '',
      ...metadataKeys.map((k) => a.metadata?.[k] ?? ''),
    ];
    return { key, rowNumber: key + 2, cells };
  });
  return {
    headers,
    rows,
    mapping: {
      template: { sheet: 'Declined', headerRow: 1, columns, fixed: {}, amountUnit: 'major' },
      numberStyle: 'dot-decimal',
      reference: { enabled: true, key: DEFAULT_REFERENCE_KEY },
    } as WorkspaceMapping,
  };
}
