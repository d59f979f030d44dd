import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeDatabase } from '../db/deskDatabase';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { LedgerStore } from '../ledger/ledgerStore';
import type { StoredDonation } from './donationStore';
import { readLedgerSummaryView, readLedgerView, type LedgerView } from './ledgerView';
import { checkReplacementRows, correctionSheet, replacementsInUploads } from './replacements';

const group = (over: Partial<LedgerGroup> = {}): LedgerGroup => ({
  id: 'u1',
  workspaceId: 'w1',
  workspaceName: 'Corrections',
  createdAt: '2026-11-20T10:00:00.000Z',
  environment: 'offline',
  baseUrl: 'http://service',
  referenceKey: 'ddRef',
  parts: [
    {
      index: 0,
      rowKeys: [0, 1],
      rowNumbers: [2, 3],
      fingerprints: ['a', 'b'],
      totals: [],
      fileHash: 'h',
      fileBytes: 1,
      file: 'f',
    },
  ],
  corrects: null,
  replaces: [
    { rowKey: 0, donationId: 'd0' },
    { rowKey: 1, donationId: 'd1' },
  ],
  stopped: null,
  ...over,
});

const intent = (state: LedgerIntent['state'], over: Partial<LedgerIntent> = {}): LedgerIntent => ({
  attemptId: `a-${state}`,
  serviceId: 's',
  groupId: 'u1',
  part: 0,
  state,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  expiresAt: null,
  timeline: [],
  counts: {},
  error: null,
  donationRowKeys: null,
  correctedByUpload: null,
  ...over,
});

const view = (groups: LedgerGroup[], intents: LedgerIntent[]): LedgerView => ({
  groups,
  intents,
  bulks: [],
  byBulkId: new Map(),
});

describe('replacementsInUploads', () => {
  it("finds the same rows in the ledger summaries (no rows' keys) as in the whole records", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dd-replacements-'));
    try {
      const ledger = await LedgerStore.open(join(dir, 'uploads'));
      const first = group().parts[0] as LedgerGroup['parts'][number];
      // Row 0 in part 0 (processed), row 5 in part 1 (ERROR, no donation for it: not held any more).
      await ledger.putGroup(
        group({
          parts: [
            first,
            { ...first, index: 1, rowKeys: [5, 6], rowNumbers: [7, 8], fingerprints: ['c', 'd'] },
          ],
          replaces: [
            { rowKey: 0, donationId: 'd0' },
            { rowKey: 5, donationId: 'd5' },
          ],
        }),
      );
      await ledger.putIntent(intent('PROCESSED'));
      await ledger.putIntent(intent('ERROR', { part: 1, donationRowKeys: [6] }));
      await ledger.close();
      const full = replacementsInUploads(await readLedgerView(join(dir, 'uploads')), 'offline');
      const light = replacementsInUploads(await readLedgerSummaryView(join(dir, 'uploads')), 'offline');
      expect([...full.keys()]).toEqual(['d0']);
      expect(light).toEqual(full);
    } finally {
      closeDatabase(dir);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['no intent yet', [], ['d0', 'd1']],
    ['processing', [intent('PROCESSING')], ['d0', 'd1']],
    ['processed', [intent('PROCESSED')], ['d0', 'd1']],
    ['abandoned for good', [intent('abandoned')], []],
    ['ERROR with a donation for row 1 only', [intent('ERROR', { donationRowKeys: [1] })], ['d1']],
    ['ERROR, then a new attempt under way', [intent('ERROR'), intent('pending')], ['d0', 'd1']],
  ] as const)('%s', (_name, intents, held) => {
    const found = replacementsInUploads(view([group()], [...intents]), 'offline');
    expect([...found.keys()].sort()).toEqual(held);
  });

  it('ignores stopped uploads and other environments', () => {
    const stopped = group({ stopped: { at: 'x', reason: 'refused' } });
    expect(replacementsInUploads(view([stopped], []), 'offline').size).toBe(0);
    expect(replacementsInUploads(view([group()], []), 'sandbox').size).toBe(0);
  });
});

const declined = (id: string, over: Partial<StoredDonation> = {}): StoredDonation => ({
  resource: {
    type: 'donations',
    id,
    attributes: {
      destination: { recipientId: '840-123456789' },
      funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'KWD', amount: 1005 },
      donor: { fullName: 'Ada', receipted: false, address: { country: 'GB' } },
      metadata: { ddRef: 'abc:1', Amount: 'clash', employee: 'E1' },
      state: {
        processingStatus: 'DECLINED',
        errors: [
          {
            status: '422',
            code: 'CAUSE_NOT_IN_GOOD_STANDING',
            title: 'Cause not in good standing',
            source: { pointer: '/data/attributes/destination/recipientId' },
          },
        ],
      },
    },
  } as StoredDonation['resource'],
  history: [],
  row: null,
  firstSeenAt: 'x',
  lastSeenAt: 'x',
  resolution: null,
  replaces: null,
  ...over,
});

describe('correctionSheet', () => {
  it('writes each declined donation as a row the mapping reads back to the same attributes', () => {
    const sheet = correctionSheet([declined('d0')]);
    const row = sheet.rows[0]?.cells ?? [];
    const cell = (h: string) => row[sheet.headers.indexOf(h)];
    expect(cell('Replaces donation')).toBe('d0');
    expect(cell('Amount')).toBe('1.005');
    expect(cell('Receipted')).toBe('no');
    expect(cell('Country')).toBe('GB');
    expect(cell('Declined because')).toBe(
      'Recipient: The cause cannot receive donations at the moment (CAUSE_NOT_IN_GOOD_STANDING)',
    );
    // A metadata key named like a fixed column gets its own header; the app's reference pair is dropped.
    expect(cell('Amount (metadata)')).toBe('clash');
    expect(sheet.headers).not.toContain('ddRef');
    expect(sheet.mapping.template.columns).toMatchObject({
      'Replaces donation': 'metadata.ddReplaces',
      'Amount (metadata)': 'metadata.Amount',
      employee: 'metadata.employee',
      Amount: 'amount',
    });
  });
});

describe('checkReplacementRows', () => {
  it('names every row that may not replace its declined donation', () => {
    const store = new Map([
      ['open', declined('open')],
      ['gone', declined('gone', { resolution: { kind: 'replaced', at: 'x', replacementId: 'n' } })],
      ['busy', declined('busy')],
    ]);
    const inUploads = new Map([
      [
        'busy',
        { uploadId: 'u', workspaceId: 'w', workspaceName: 'Other', createdAt: '2026-11-01T00:00:00Z' },
      ],
    ]);
    expect(() =>
      checkReplacementRows(
        [{ rowKey: 0, rowNumber: 2, donationId: 'open' }],
        (id) => store.get(id),
        inUploads,
      ),
    ).not.toThrow();
    try {
      checkReplacementRows(
        [
          { rowKey: 0, rowNumber: 2, donationId: 'open' },
          { rowKey: 1, rowNumber: 3, donationId: 'open' },
          { rowKey: 2, rowNumber: 4, donationId: 'gone' },
          { rowKey: 3, rowNumber: 5, donationId: 'busy' },
          { rowKey: 4, rowNumber: null, donationId: 'nowhere' },
        ],
        (id) => store.get(id),
        inUploads,
      );
      expect.unreachable();
    } catch (e) {
      const problems = (e as { details: { problems: string[] } }).details.problems;
      expect(problems).toEqual([
        expect.stringMatching(/^Row 3 replaces donation open, as row 2 does/),
        expect.stringMatching(/^Row 4: .*already replaced by n/),
        expect.stringMatching(/^Row 5: .*being replaced by the upload of “Other”/),
        expect.stringMatching(/^New row 5 replaces nowhere, which is not a declined donation/),
      ]);
    }
  });
});
