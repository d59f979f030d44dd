import { describe, expect, it } from 'vitest';
import type { IntentView, UploadView } from '../../../shared/contract/uploadChannels';
import { workspaceStanding } from './workspaceStanding';

function intent(state: IntentView['state'], extra: Partial<IntentView> = {}): IntentView {
  return {
    intentId: `bulk-${state}`,
    serviceId: state === 'creating' || state === 'abandoned' ? null : `bulk-${state}`,
    uploadId: 'u',
    workspaceId: 'ws-1',
    part: 0,
    parts: 1,
    state,
    rows: 2,
    totals: [],
    fileHash: '',
    createdAt: '2026-11-02T09:00:00.000Z',
    updatedAt: '2026-11-02T09:00:00.000Z',
    counts: {},
    donations: null,
    error: null,
    timeline: [],
    corrects: null,
    correctedByUpload: null,
    ...extra,
  };
}

function upload(
  id: string,
  createdAt: string,
  state: UploadView['state'],
  intents: IntentView[],
  extra: Partial<UploadView> = {},
): UploadView {
  return {
    uploadId: id,
    workspaceId: 'ws-1',
    workspaceName: 'November',
    environment: 'offline',
    createdAt,
    rows: 2,
    totals: [],
    state,
    stoppedReason: null,
    approval: null,
    corrects: null,
    intents,
    ...extra,
  };
}

describe('where a workspace stands', () => {
  it('is not uploaded while no upload of it reached the service', () => {
    expect(workspaceStanding('ws-1', []).kind).toBe('not-uploaded');
    const refusedByHost = upload('u0', '2026-11-02T09:00:00.000Z', 'stopped', [intent('abandoned')]);
    expect(workspaceStanding('ws-1', [refusedByHost]).kind).toBe('not-uploaded');
    const someoneElses = upload('u1', '2026-11-02T09:00:00.000Z', 'processed', [intent('PROCESSED')], {
      workspaceId: 'ws-2',
    });
    expect(workspaceStanding('ws-1', [someoneElses]).kind).toBe('not-uploaded');
  });

  it('is uploaded, with its latest upload, while followed and once processed', () => {
    const first = upload('u1', '2026-11-02T09:00:00.000Z', 'processed', [intent('PROCESSED')]);
    const second = upload('u2', '2026-11-03T09:00:00.000Z', 'following', [intent('PROCESSING')]);
    const standing = workspaceStanding('ws-1', [second, first]);
    expect(standing.kind).toBe('uploaded');
    expect(standing.upload).toMatchObject({ uploadId: 'u2', state: 'following', intentId: null });
  });

  it('needs repair while a rejected bulk is not corrected, naming the bulk to repair', () => {
    const rejected = upload('u1', '2026-11-02T09:00:00.000Z', 'error', [intent('ERROR')]);
    const standing = workspaceStanding('ws-1', [rejected]);
    expect(standing.kind).toBe('needs-repair');
    expect(standing.upload).toMatchObject({ uploadId: 'u1', intentId: 'bulk-ERROR', state: 'error' });
  });

  it('is corrected once its rejected rows went out again, and needs repair again if that is rejected too', () => {
    const rejected = upload('u1', '2026-11-02T09:00:00.000Z', 'error', [
      intent('ERROR', { correctedByUpload: 'u2' }),
    ]);
    const correction = upload('u2', '2026-11-02T10:00:00.000Z', 'processed', [intent('PROCESSED')], {
      corrects: 'bulk-ERROR',
    });
    const standing = workspaceStanding('ws-1', [correction, rejected]);
    expect(standing.kind).toBe('corrected');
    expect(standing.upload?.uploadId).toBe('u2');

    const rejectedAgain = {
      ...correction,
      state: 'error' as const,
      intents: [intent('ERROR', { intentId: 'b2' })],
    };
    expect(workspaceStanding('ws-1', [rejectedAgain, rejected])).toMatchObject({
      kind: 'needs-repair',
      upload: { uploadId: 'u2', intentId: 'b2' },
    });
  });
});
