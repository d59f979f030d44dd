import type { DonationResource } from '../../../shared/bulk-file/serviceSchemas';
import { fingerprintDonation } from '../../../shared/donation';
import { DEFAULT_REFERENCE_KEY, parseReference } from '../../../shared/mapping';
import { workspaceRef } from '../../../shared/workspace';
import type { DonationRowLink } from './donationStore';
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

  constructor(private readonly ledger: LedgerView) {}

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
      const index = part.rowKeys.indexOf(reference.row);
      if (index >= 0) {
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
    const index = part.fingerprints.findIndex(
      (f, i) => f === fingerprint && !taken?.has(part.rowKeys[i] as number),
    );
    if (index < 0) return null;
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
