import { describe, expect, it } from 'vitest';
import type { StoredDonation } from './donationStore';
import { causesThatCannotReceive } from './causeStanding';

type State = StoredDonation['resource']['attributes']['state']['processingStatus'];

function donation(id: string, recipientId: string, state: State, at: string, code?: string): StoredDonation {
  return {
    resource: {
      type: 'donations',
      id,
      attributes: {
        destination: { recipientId },
        funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
        state: {
          processingStatus: state,
          statusLastUpdated: at,
          ...(code ? { errors: [{ status: '422', code, title: code, detail: '' }] } : {}),
        },
      },
    },
    history: [{ state, seenAt: at, statusLastUpdated: at }],
    row: null,
    firstSeenAt: at,
    lastSeenAt: at,
    resolution: null,
    replaces: null,
  } as StoredDonation;
}

describe('causes that cannot receive money', () => {
  it('are those whose latest news is a decline for that reason, projects counted with their cause', () => {
    const unable = causesThatCannotReceive([
      donation('d1', '840-111/P1', 'DECLINED', '2026-11-02T10:00:00.000Z', 'CAUSE_NOT_IN_GOOD_STANDING'),
      donation('d2', '840-222', 'DECLINED', '2026-11-02T10:00:00.000Z', 'PROGRAM_BUDGET_EXCEEDED'),
      donation('d3', '840-333', 'CLEARED', '2026-11-02T10:00:00.000Z'),
    ]);
    expect([...unable.keys()]).toEqual(['840-111']);
    expect(unable.get('840-111')).toEqual({
      code: 'CAUSE_NOT_IN_GOOD_STANDING',
      reason: 'The cause cannot receive donations at the moment',
      declinedAt: '2026-11-02T10:00:00.000Z',
      donationId: 'd1',
    });
  });

  it('clears a cause once a donation to it was initiated after the decline, not before', () => {
    const declined = donation(
      'd1',
      '840-111',
      'DECLINED',
      '2026-11-02T10:00:00.000Z',
      'CAUSE_NOT_IN_GOOD_STANDING',
    );
    const earlier = donation('d0', '840-111', 'INITIATED', '2026-11-01T10:00:00.000Z');
    expect(causesThatCannotReceive([earlier, declined]).has('840-111')).toBe(true);
    const later = donation('d2', '840-111', 'PAID', '2026-11-03T10:00:00.000Z');
    expect(causesThatCannotReceive([declined, later]).has('840-111')).toBe(false);
  });
});
