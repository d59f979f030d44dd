import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { fingerprintDonation } from '../../../shared/donation';
import { DEFAULT_REFERENCE_KEY, parseReference } from '../../../shared/mapping';
import { workspaceRef } from '../../../shared/workspace';
import type { DonationRowLink } from './donationStore';
import type { LedgerPart } from '../ledger/ledgerShapes';
import type { LedgerView } from './ledgerView';

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

/**
 * Ties each donation to the workspace row it came from. First by the reference metadata pair
 * (`<workspaceRef>:<rowKey>`, certain); else by content fingerprint within the rows of the donation's
 * own bulk, each row taken at most once so identical gifts pair up in order. Donations whose bulk is
 * not in the ledger (another computer's uploads, single donations) stay unmatched.
 */
export class RowMatcher {
  /** Rows already claimed per bulk, so one row is never given to two donations. */
  private readonly taken = new Map<string, Set<number>>();
  /** Per bulk: row key → position in its part, fingerprint → positions; built on first use (parts hold up to 50k rows). */
  private readonly indexes = new Map<
    string,
    { byKey: Map<number, number>; byPrint: Map<string, number[]> }
  >();

  constructor(private readonly ledger: LedgerView) {}

  private indexOf(
    bulkId: string,
    part: LedgerPart,
  ): { byKey: Map<number, number>; byPrint: Map<string, number[]> } {
    let index = this.indexes.get(bulkId);
    if (!index) {
      const byKey = new Map<number, number>();
      const byPrint = new Map<string, number[]>();
      part.rowKeys.forEach((key, i) => byKey.set(key, i));
      part.fingerprints.forEach((print, i) => {
        const list = byPrint.get(print);
        if (list) list.push(i);
        else byPrint.set(print, [i]);
      });
      this.indexes.set(bulkId, (index = { byKey, byPrint }));
    }
    return index;
  }

  /** Claims the rows already linked (from the store) so fingerprints do not hand them out again. */
  claim(bulkId: string, rowKey: number): void {
    let set = this.taken.get(bulkId);
    if (!set) this.taken.set(bulkId, (set = new Set()));
    set.add(rowKey);
  }

  match(donation: DonationResource): DonationRowLink | null {
    const bulkId = donation.attributes.bulkId;
    const bulk = bulkId ? this.ledger.byBulkId.get(bulkId) : undefined;
    if (!bulk || !bulkId) return null;
    const part = bulk.group.parts[bulk.intent.part];
    if (!part) return null;
    const referenceKey = bulk.group.referenceKey ?? DEFAULT_REFERENCE_KEY;
    const reference = parseReference(donation.attributes.metadata?.[referenceKey]);
    if (reference && reference.workspace === workspaceRef(bulk.group.workspaceId)) {
      const index = this.indexOf(bulkId, part).byKey.get(reference.row);
      if (index !== undefined) {
        this.claim(bulkId, reference.row);
        return {
          workspaceId: bulk.group.workspaceId,
          rowKey: reference.row,
          rowNumber: part.rowNumbers[index] ?? null,
          method: 'reference',
        };
      }
    }
    const fingerprint = fingerprintDonation(requestShape(donation.attributes), {
      ignoreMetadataKeys: [referenceKey],
    });
    const taken = this.taken.get(bulkId);
    const index = this.indexOf(bulkId, part)
      .byPrint.get(fingerprint)
      ?.find((i) => !taken?.has(part.rowKeys[i] as number));
    if (index === undefined) return null;
    const rowKey = part.rowKeys[index] as number;
    this.claim(bulkId, rowKey);
    return {
      workspaceId: bulk.group.workspaceId,
      rowKey,
      rowNumber: part.rowNumbers[index] ?? null,
      method: 'fingerprint',
    };
  }
}
