import { describe, expect, it } from 'vitest';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { claimsToGiveBack, rowCreatedNothing } from './correctionClaims';

/** An upload of two parts: rows 1 and 2 in part 0, row 3 in part 1; rows 1 and 3 replace D1 and D3. */
function group(id: string, extra: Partial<LedgerGroup> = {}): LedgerGroup {
  const part = (index: number, rowKeys: number[]) => ({
    index,
    rowKeys,
    rowNumbers: rowKeys.map((k) => k + 1),
    fingerprints: rowKeys.map((k) => `f${k}`),
    totals: [],
    fileHash: '',
    fileBytes: 0,
    file: `${id}-${index}.json.gz`,
  });
  return {
    id,
    workspaceId: 'ws',
    workspaceName: 'Corrections',
    createdAt: '2026-11-25T10:00:00.000Z',
    environment: 'offline',
    baseUrl: '',
    referenceKey: 'ddRef',
    parts: [part(0, [1, 2]), part(1, [3])],
    corrects: null,
    replaces: [
      { rowKey: 1, donationId: 'D1' },
      { rowKey: 3, donationId: 'D3' },
    ],
    stopped: null,
    approval: null,
    ...extra,
  };
}

function intent(
  groupId: string,
  part: number,
  state: LedgerIntent['state'],
  donationRowKeys: number[] | null = null,
): LedgerIntent {
  return {
    attemptId: `${groupId}-${part}-${state}`,
    serviceId: state === 'creating' ? null : `bulk-${groupId}-${part}`,
    groupId,
    part,
    state,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    expiresAt: null,
    timeline: [],
    counts: {},
    error: null,
    donationRowKeys,
    correctedByUpload: null,
  };
}

const stopped = { at: '2026-11-25T10:01:00.000Z', reason: 'Approval void: edited' };

describe('rowCreatedNothing', () => {
  it('is true only where the ledger proves no donation can come of the row', () => {
    const g = group('u');
    // ERROR, listed: the row without a donation created nothing; the one with a donation did.
    const listed = [intent('u', 0, 'ERROR', [2]), intent('u', 1, 'PROCESSED', [3])];
    expect(rowCreatedNothing(g, listed, 1)).toBe(true);
    expect(rowCreatedNothing(g, listed, 2)).toBe(false);
    expect(rowCreatedNothing(g, listed, 3)).toBe(false);
    // ERROR not yet listed, or still processing: unsure, kept.
    expect(rowCreatedNothing(g, [intent('u', 0, 'ERROR', null)], 1)).toBe(false);
    expect(rowCreatedNothing(g, [intent('u', 0, 'PROCESSING')], 1)).toBe(false);
    // Not stopped and nothing sent yet: it will still be sent.
    expect(rowCreatedNothing(g, [], 1)).toBe(false);
  });

  it('frees the rows of a stopped upload whose part never held a file, not one whose file may have landed', () => {
    const g = group('u', { stopped });
    expect(rowCreatedNothing(g, [], 1)).toBe(true);
    expect(rowCreatedNothing(g, [intent('u', 0, 'abandoned')], 1)).toBe(true);
    expect(rowCreatedNothing(g, [intent('u', 0, 'uploading')], 1)).toBe(false);
    expect(rowCreatedNothing(g, [intent('u', 0, 'UPLOADED')], 1)).toBe(false);
    // Part 0 went out before the stop; part 1 never did.
    expect(rowCreatedNothing(g, [intent('u', 0, 'PROCESSING')], 3)).toBe(true);
  });
});

describe('claimsToGiveBack', () => {
  it('gives a donation back only when every upload that carries it created nothing for it', () => {
    const failed = group('failed');
    const failedIntents = [intent('failed', 0, 'ERROR', []), intent('failed', 1, 'ERROR', [])];
    expect(claimsToGiveBack([failed], failedIntents)).toEqual(new Map([['failed', ['D1', 'D3']]]));
    // A resend carries D1 again and is on its way: D1 stays claimed (whichever upload holds it).
    const resend = group('resend', { replaces: [{ rowKey: 1, donationId: 'D1' }] });
    const found = claimsToGiveBack([failed, resend], [...failedIntents, intent('resend', 0, 'PROCESSING')]);
    expect(found).toEqual(new Map([['failed', ['D3']]]));
  });
});
