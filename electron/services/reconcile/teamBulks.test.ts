import { describe, expect, it } from 'vitest';
import type { SharedBulk } from './ledgerSharing';
import type { LedgerSummaryView } from './ledgerView';
import { withTeamBulks } from './teamBulks';
import { uploadControls } from './views';

const empty: LedgerSummaryView = { groups: [], intents: [], bulks: [], byBulkId: new Map() };
const service = { id: 'production', baseUrl: 'https://api.example.org' };

const bulk = (over: Partial<SharedBulk>): SharedBulk => ({
  environmentKey: 'production|https://api.example.org',
  bulkId: 'b1',
  uploadId: 'u1',
  part: 0,
  uploadCreatedAt: '2026-11-20T09:00:00.000Z',
  partTotals: [{ currencyCode: 'USD', count: 3, amount: 3000 }],
  state: 'PROCESSED',
  takenTotals: [{ currencyCode: 'USD', count: 3, amount: 3000 }],
  workspaceName: 'November',
  sentBy: 'alice',
  computer: 'alice-laptop',
  updatedAt: '2026-11-20T09:05:00.000Z',
  ...over,
});

describe('colleagues’ bulks in this computer’s ledger', () => {
  it('become one upload per team upload, one part per bulk, said to be sent by the colleague', () => {
    const { ledger } = withTeamBulks(
      empty,
      [
        bulk({}),
        bulk({ bulkId: 'b2', part: 1, partTotals: [{ currencyCode: 'EUR', count: 1, amount: 500 }] }),
      ],
      service,
      'db:5432/desk',
    );
    expect(ledger.groups).toHaveLength(1);
    expect(ledger.groups[0]).toMatchObject({
      id: 'u1',
      workspaceName: 'November',
      environment: 'production',
      createdAt: '2026-11-20T09:00:00.000Z',
      sentElsewhere: { by: 'alice', computer: 'alice-laptop' },
    });
    expect(ledger.groups[0]?.parts.map((p) => p.totals)).toEqual([
      [{ currencyCode: 'USD', count: 3, amount: 3000 }],
      [{ currencyCode: 'EUR', count: 1, amount: 500 }],
    ]);
    expect([...ledger.byBulkId.keys()]).toEqual(['b1', 'b2']);
  });

  it('leave out what this computer sent itself (its own ledger says more)', () => {
    const own = withTeamBulks(empty, [bulk({})], service, 'db').ledger;
    const again = withTeamBulks(own, [bulk({}), bulk({ bulkId: 'b9', uploadId: 'u9' })], service, 'db');
    expect(again.ledger.groups.map((g) => g.id)).toEqual(['u1', 'u9']);
    expect(again.ledger.bulks.map((b) => b.bulkId)).toEqual(['b1', 'b9']);
  });

  it('tie out a part that stopped part-way with what the sender worked out, or say who has not yet', () => {
    const stopped = bulk({ state: 'ERROR', takenTotals: [{ currencyCode: 'USD', count: 2, amount: 1500 }] });
    const { ledger, partials } = withTeamBulks(empty, [stopped], service, 'db');
    expect(partials.get('b1')).toEqual({ totals: [{ currencyCode: 'USD', count: 2, amount: 1500 }] });
    const sums = [
      {
        bulkId: 'b1',
        status: 'CLEARED' as const,
        currencyCode: 'USD',
        count: 2,
        amount: 1500,
        open: 0,
        openAmount: 0,
        corrections: 0,
        correctionsAmount: 0,
      },
    ];
    const [tied] = uploadControls(ledger, 'production', sums, {
      lastRefreshAt: '2026-11-21T00:00:00.000Z',
      partials,
    });
    expect(tied).toMatchObject({
      reconciled: true,
      submitted: [{ currencyCode: 'USD', count: 2, amount: 1500 }],
    });
    expect(tied?.sentElsewhere).toEqual({ by: 'alice', computer: 'alice-laptop' });

    const unknown = withTeamBulks(empty, [bulk({ state: 'ERROR', takenTotals: null })], service, 'db');
    const [waiting] = uploadControls(unknown.ledger, 'production', sums, {
      lastRefreshAt: '2026-11-21T00:00:00.000Z',
      partials: unknown.partials,
    });
    expect(waiting?.reconciled).toBe(false);
    expect(waiting?.notes[0]).toBe(
      'Part 1 ended in error after creating donations, and alice’s computer, which sent it, has not yet said which rows got them: it does at its next refresh.',
    );
  });
});
