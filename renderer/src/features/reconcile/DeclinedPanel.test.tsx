import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { DonationView, UploadControl } from '../../../../shared/contract/reconcileChannels';

// The panel and the table only call main when a person acts: nothing is asked for while drawing.
vi.mock('../../app/deskClient', () => ({ desk: {} }));
const { DeclinedPanel } = await import('./DeclinedPanel');
const { DonationTable } = await import('./DonationTable');

/* What Reconcile draws first of a long history: the declined list's first rows, and a page of the table. */

function donation(i: number, over: Partial<DonationView> = {}): DonationView {
  return {
    id: `d${i}`,
    recipientId: `250-${100000000 + i}`,
    foundationId: null,
    amount: 500 + i,
    currencyCode: 'USD',
    donorName: `Employee ${i}`,
    state: 'DECLINED',
    statusLastUpdated: '2026-11-02T10:00:00.000Z',
    payablePaymentType: null,
    receiptId: null,
    metadata: {},
    bulkId: 'b1',
    row: { workspaceId: 'ws', rowKey: i, rowNumber: i + 2, method: 'reference' },
    errors: [
      {
        status: '422',
        code: 'CAUSE_INACTIVE',
        title: 'Cause cannot receive donations',
        detail: 'The cause is not active.',
        pointer: '/data/attributes/destination/recipientId',
      },
    ],
    history: [],
    lastSeenAt: '2026-11-03T10:00:00.000Z',
    resolution: null,
    replaces: null,
    inUpload: null,
    correctionElsewhere: null,
    ...over,
  };
}

describe('the declined list of a long history', () => {
  const many = Array.from({ length: 45 }, (_, i) => donation(i));
  const html = renderToStaticMarkup(
    <DeclinedPanel donations={many} counts={{ open: 45, total: 2000 }} onChanged={() => undefined} />,
  );

  it('draws its first rows at once and the rest as the list comes into view, counted in full', () => {
    expect(html).toContain('Declined donations: 45 open of 2000');
    expect(html).toContain('The first 45 declined donations are listed, open ones first.');
    expect(html.match(/data-testid="declined-donation"/g)).toHaveLength(10);
    expect(html).toContain('data-testid="declined-more"');
    // The group counts every donation listed, drawn or not.
    expect(html).toContain('· 45 donations');
  });

  it('says a reason’s code and detail on hover, and names each checkbox', () => {
    expect(html).toContain(
      'title="Cause cannot receive donations (CAUSE_INACTIVE): The cause is not active.; status 422; about the recipient"',
    );
    expect(html).toContain('aria-label="Select $5.00 to 250-100000000"');
  });

  it('draws every row, with no marker, when they fit in the first drawing', () => {
    const few = renderToStaticMarkup(
      <DeclinedPanel donations={many.slice(0, 3)} onChanged={() => undefined} />,
    );
    expect(few.match(/data-testid="declined-donation"/g)).toHaveLength(3);
    expect(few).not.toContain('declined-more');
  });
});

describe('a page of the donations table', () => {
  it('names each row’s recipient as a button, its state with the code on hover, and the chosen one pressed', () => {
    const rows = [donation(1, { state: 'CLEARED', errors: [] }), donation(2)];
    const upload = { workspaceName: 'October gifts' } as UploadControl;
    const html = renderToStaticMarkup(
      <DonationTable
        rows={rows}
        selectedId="d2"
        onSelect={() => undefined}
        uploadOfBulk={new Map([['b1', upload]])}
        sourceRow={(d) => `row ${d.row?.rowNumber}`}
      />,
    );
    expect(html.match(/data-testid="donation-row"/g)).toHaveLength(2);
    expect(html).toContain('aria-pressed="false">250-100000001</button>');
    expect(html).toContain('aria-pressed="true">250-100000002</button>');
    expect(html).toContain('title="Cleared (CLEARED)"');
    expect(html).toContain('title="Declined (DECLINED)"');
    expect(html).toContain(
      '<div data-testid="donation-bulk"><span title="Bulk b1">October gifts</span></div>',
    );
  });
});
