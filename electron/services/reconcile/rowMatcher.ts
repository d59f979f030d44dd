import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { fingerprintDonation } from '../../../shared/donation';
import { DEFAULT_REFERENCE_KEY, parseReference } from '../../../shared/mapping';
import { workspaceRef } from '../../../shared/workspace';
import type { DonationRowLink } from './donationStore';
import type { LedgerGroupSummary, LedgerPart, LedgerPartSummary } from '../ledger/ledgerShapes';
import type { LedgerBulk, LedgerView } from './ledgerView';

/**
 * The request-shaped attributes of a listed donation (what the upload fingerprinted): response-only
 * fields (state, bulkId, payable, receiptId) are left out so the fingerprint can match the ledger's.
 */
function requestShape(attributes: DonationResource['attributes']): Record<string, unknown> {
  const { destination, funds, donor, metadata } = attributes;
  return {
    destination: {
      recipientId: destination.recipientId,
      ...(destination.foundationId !== undefined ? { foundationId: destination.foundationId } : {}),
    },
    funds: {
      paymentType: funds.paymentType,
      currencyCode: funds.currencyCode,
      amount: funds.amount,
      ...(funds.source !== undefined ? { source: funds.source } : {}),
    },
    ...(donor ? { donor } : {}),
    ...(metadata ? { metadata } : {}),
  };
}

/** Where a bulk's rows are looked up: its part's keys, numbers and fingerprints, in upload order. */
type PartRows = Pick<LedgerPart, 'rowKeys' | 'rowNumbers' | 'fingerprints'>;

interface BulkIndex {
  part: PartRows;
  /** Row key → position in its part. */
  byKey: Map<number, number>;
  /** Fingerprint → positions, built only when a donation has to be matched by content. */
  byPrint: Map<string, number[]> | null;
  /** The workspace's part of a reference (`workspaceRef`), worked out once per bulk, not per donation. */
  ref: string;
}

/**
 * Ties each donation to the workspace row it came from. First by the reference metadata pair
 * (`<workspaceRef>:<rowKey>`, certain); else by content fingerprint within the rows of the donation's
 * own bulk, each row taken at most once so identical gifts pair up in order. Donations whose bulk is
 * not in the ledger (another computer's uploads, single donations) stay unmatched.
 *
 * The ledger given may be the summaries (no rows): an upload's rows are then read with `rowsOf`
 * the first time one of its donations is matched, so a refresh holds the rows of the uploads it
 * reads, not those of the whole history; `forget` lets them go once a bulk has been read.
 */
export class RowMatcher {
  /** Rows already claimed per bulk, so one row is never given to two donations. */
  private readonly taken = new Map<string, Set<number>>();
  /** Per bulk, built on first use (parts hold up to 50k rows); null: its rows cannot be read. */
  private readonly indexes = new Map<string, BulkIndex | null>();

  constructor(
    private readonly ledger: LedgerView<LedgerGroupSummary>,
    private readonly rowsOf: (bulk: LedgerBulk<LedgerGroupSummary>) => PartRows | undefined = (bulk) =>
      wholePart(bulk.group.parts[bulk.intent.part]),
  ) {}

  private indexOf(bulkId: string, bulk: LedgerBulk<LedgerGroupSummary>): BulkIndex | null {
    let index = this.indexes.get(bulkId);
    if (index === undefined) {
      const part = this.rowsOf(bulk);
      index = part
        ? { part, byKey: new Map(), byPrint: null, ref: workspaceRef(bulk.group.workspaceId) }
        : null;
      if (index) {
        const byKey = index.byKey;
        part?.rowKeys.forEach((key, i) => byKey.set(key, i));
      }
      this.indexes.set(bulkId, index);
    }
    return index;
  }

  private byPrint(index: BulkIndex): Map<string, number[]> {
    if (!index.byPrint) {
      const byPrint = new Map<string, number[]>();
      index.part.fingerprints.forEach((print, i) => {
        const list = byPrint.get(print);
        if (list) list.push(i);
        else byPrint.set(print, [i]);
      });
      index.byPrint = byPrint;
    }
    return index.byPrint;
  }

  /** Claims the rows already linked (from the store) so fingerprints do not hand them out again. */
  claim(bulkId: string, rowKey: number): void {
    let set = this.taken.get(bulkId);
    if (!set) this.taken.set(bulkId, (set = new Set()));
    set.add(rowKey);
  }

  /** Drops what is held of a bulk (its rows, the rows claimed): it will not be matched again. */
  forget(bulkId: string): void {
    this.indexes.delete(bulkId);
    this.taken.delete(bulkId);
  }

  match(donation: DonationResource): DonationRowLink | null {
    const bulkId = donation.attributes.bulkId;
    const bulk = bulkId ? this.ledger.byBulkId.get(bulkId) : undefined;
    if (!bulk || !bulkId) return null;
    const index = this.indexOf(bulkId, bulk);
    if (!index) return null;
    const part = index.part;
    const referenceKey = bulk.group.referenceKey ?? DEFAULT_REFERENCE_KEY;
    const reference = parseReference(donation.attributes.metadata?.[referenceKey]);
    if (reference && reference.workspace === index.ref) {
      const at = index.byKey.get(reference.row);
      if (at !== undefined) {
        this.claim(bulkId, reference.row);
        return {
          workspaceId: bulk.group.workspaceId,
          rowKey: reference.row,
          rowNumber: part.rowNumbers[at] ?? null,
          method: 'reference',
        };
      }
    }
    const fingerprint = fingerprintDonation(requestShape(donation.attributes), {
      ignoreMetadataKeys: [referenceKey],
    });
    const taken = this.taken.get(bulkId);
    const found = this.byPrint(index)
      .get(fingerprint)
      ?.find((i) => !taken?.has(part.rowKeys[i] as number));
    if (found === undefined) return null;
    const rowKey = part.rowKeys[found] as number;
    this.claim(bulkId, rowKey);
    return {
      workspaceId: bulk.group.workspaceId,
      rowKey,
      rowNumber: part.rowNumbers[found] ?? null,
      method: 'fingerprint',
    };
  }
}

/** A part's rows when the record read carries them (a whole ledger), else undefined. */
function wholePart(part: LedgerPartSummary | undefined): PartRows | undefined {
  if (!part?.rowKeys || !part.rowNumbers || !part.fingerprints) return undefined;
  return { rowKeys: part.rowKeys, rowNumbers: part.rowNumbers, fingerprints: part.fingerprints };
}
