import { describe, expect, it, vi } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { fingerprintDonation } from '../../../shared/donation';
import type { LedgerGroup, LedgerGroupSummary, LedgerIntent } from '../ledger/ledgerShapes';
import type { LedgerBulk, LedgerView } from './ledgerView';
import { RowMatcher } from './rowMatcher';

const WORKSPACE = '1234abcd-0000-4000-8000-000000000001';

const attributes = (employee: string, reference?: string) => ({
  destination: { recipientId: '840-446863710' },
  funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
  metadata: { employee, ...(reference ? { ddRef: reference } : {}) },
});

const donation = (bulkId: string, employee: string, reference?: string): DonationResource =>
  ({
    type: 'donations',
    id: `d-${employee}`,
    attributes: {
      ...attributes(employee, reference),
      state: { processingStatus: 'ACCEPTED' },
      bulkId,
    },
  }) as DonationResource;

/** An upload of rows keyed 10, 11, 12 (spreadsheet rows 2, 3, 4), employees E10.., in bulk `bulkId`. */
function upload(bulkId: string): LedgerBulk<LedgerGroup> {
  const keys = [10, 11, 12];
  const group = {
    id: `g-${bulkId}`,
    workspaceId: WORKSPACE,
    referenceKey: 'ddRef',
    parts: [
      {
        index: 0,
        rowKeys: keys,
        rowNumbers: [2, 3, 4],
        fingerprints: keys.map((k) =>
          fingerprintDonation(attributes(`E${k}`), { ignoreMetadataKeys: ['ddRef'] }),
        ),
      },
    ],
  } as unknown as LedgerGroup;
  return { bulkId, group, intent: { part: 0 } as LedgerIntent };
}

/** The same uploads as summaries, without their rows (what pages and totals read). */
function summaries(bulks: Array<LedgerBulk<LedgerGroup>>): LedgerView<LedgerGroupSummary> {
  const out = bulks.map((b) => ({
    ...b,
    group: { ...b.group, parts: b.group.parts.map(({ index }) => ({ index })) } as LedgerGroupSummary,
  }));
  return { groups: [], intents: [], bulks: out, byBulkId: new Map(out.map((b) => [b.bulkId, b])) };
}

describe('RowMatcher over the uploads’ summaries', () => {
  it('reads an upload’s rows once, when its first donation is matched, and ties as the whole ledger does', () => {
    const whole = [upload('b1'), upload('b2')];
    const rowsOf = vi.fn((b: LedgerBulk<LedgerGroupSummary>) => {
      const part = whole.find((w) => w.bulkId === b.bulkId)?.group.parts[0];
      return part;
    });
    const matcher = new RowMatcher(summaries(whole), rowsOf);
    const wholeMatcher = new RowMatcher({
      ...summaries(whole),
      bulks: whole,
      byBulkId: new Map(whole.map((b) => [b.bulkId, b])),
    });
    expect(rowsOf).not.toHaveBeenCalled();
    const asked = [
      donation('b1', 'E11', `1234abcd:11`),
      donation('b1', 'E12'),
      donation('b1', 'E10', `1234abcd:10`),
    ];
    const links = asked.map((d) => matcher.match(d));
    expect(links).toEqual([
      { workspaceId: WORKSPACE, rowKey: 11, rowNumber: 3, method: 'reference' },
      { workspaceId: WORKSPACE, rowKey: 12, rowNumber: 4, method: 'fingerprint' },
      { workspaceId: WORKSPACE, rowKey: 10, rowNumber: 2, method: 'reference' },
    ]);
    expect(asked.map((d) => wholeMatcher.match(d))).toEqual(links);
    // Only the upload whose donations were matched was read, and once.
    expect(rowsOf).toHaveBeenCalledTimes(1);
    expect(rowsOf.mock.calls[0]?.[0].bulkId).toBe('b1');
  });

  it('lets an upload’s rows go when told, reading them again if asked', () => {
    const whole = [upload('b1')];
    const rowsOf = vi.fn(() => whole[0]?.group.parts[0]);
    const matcher = new RowMatcher(summaries(whole), rowsOf);
    matcher.claim('b1', 12);
    // Row 12 is taken: a donation like it has no row left.
    expect(matcher.match(donation('b1', 'E12'))).toBeNull();
    matcher.forget('b1');
    expect(matcher.match(donation('b1', 'E12'))).toMatchObject({ rowKey: 12, method: 'fingerprint' });
    expect(rowsOf).toHaveBeenCalledTimes(2);
  });

  it('ties nothing when an upload’s rows cannot be read', () => {
    const matcher = new RowMatcher(summaries([upload('b1')]), () => undefined);
    expect(matcher.match(donation('b1', 'E10', '1234abcd:10'))).toBeNull();
  });
});
