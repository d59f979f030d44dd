import { describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import { sqlstateOf } from './teamDbPool';
import { toAuditEntry, toHolder, toUpload, type UploadRow } from './teamDbRows';

const at = new Date('2026-03-04T05:06:07.000Z');

const uploadRow: UploadRow = {
  id: 'u1',
  workspace_name: 'March gifts',
  environment: 'sandbox',
  environment_key: 'sandbox|https://example.test',
  computer: 'laptop-1',
  file_sha256: 'ab'.repeat(32),
  rows: 3,
  totals: [{ currencyCode: 'EUR', amount: 1500, count: 3 }] as UploadRow['totals'],
  review: null as unknown as UploadRow['review'],
  preparer: 'alice',
  state: 'waiting',
  created_at: at,
  decided_by: null,
  decided_at: null,
  reason: null,
  sent_by: null,
  sent_at: null,
  sender: undefined as unknown as UploadRow['sender'],
  sent_from: null,
};

describe('the team database’s rows read as the app’s types', () => {
  it('an upload: times as ISO text, no decision yet as null, the preparer sending by default', () => {
    const upload = toUpload(uploadRow);
    expect(upload).toMatchObject({
      id: 'u1',
      workspaceName: 'March gifts',
      createdAt: '2026-03-04T05:06:07.000Z',
      decidedAt: null,
      sentAt: null,
      sender: 'preparer',
      sentFrom: null,
    });
    expect(toUpload({ ...uploadRow, decided_at: at, sender: 'approver' })).toMatchObject({
      decidedAt: '2026-03-04T05:06:07.000Z',
      sender: 'approver',
    });
  });

  it('a correction claim and an audit entry', () => {
    expect(
      toHolder({
        donation_id: 'd1',
        claimed_by: 'bob',
        computer: 'laptop-2',
        claimed_at: at,
        how: 'upload',
        upload_id: 'u1',
        replacement_id: null,
        state: 'in-progress',
      }),
    ).toEqual({
      donationId: 'd1',
      by: 'bob',
      computer: 'laptop-2',
      since: '2026-03-04T05:06:07.000Z',
      how: 'upload',
      uploadId: 'u1',
      state: 'in-progress',
      replacementId: null,
    });
    const entry = toAuditEntry({
      seq: '42',
      at,
      person: 'carol',
      computer: 'laptop-3',
      environment: 'sandbox',
      action: 'team-rule',
      workspace_id: null,
      upload_id: null,
      donation_id: null,
      details: { approval: 'always' },
    });
    expect(entry).toMatchObject({ seq: 42, at: '2026-03-04T05:06:07.000Z', person: 'carol' });
  });

  it('a failure’s SQLSTATE, when the team database gave one', () => {
    expect(sqlstateOf(new DeskFailure('TEAM_REFUSED', 'No.', { sqlstate: '42501' }))).toBe('42501');
    expect(sqlstateOf(new DeskFailure('TEAM_ERROR', 'No.'))).toBeUndefined();
    expect(sqlstateOf(new Error('x'))).toBeUndefined();
  });
});
