import type { UploadView } from '../../../shared/contract/uploadChannels';
import type { WorkspaceStanding } from '../../../shared/contract/workspace';

function about(upload: UploadView, intentId: string | null): NonNullable<WorkspaceStanding['upload']> {
  return {
    uploadId: upload.uploadId,
    createdAt: upload.createdAt,
    environment: upload.environment,
    state: upload.state,
    intentId,
  };
}

/**
 * Where a workspace stands, from its uploads in the ledger. An upload stopped before the service
 * had its file sent nothing, so it does not count. A bulk the service rejected and no later upload
 * corrected means "needs repair", whatever else was sent; once every rejected bulk is corrected the
 * workspace is "corrected"; otherwise "uploaded", with its latest upload.
 */
export function workspaceStanding(workspaceId: string, uploads: readonly UploadView[]): WorkspaceStanding {
  const mine = uploads
    .filter((u) => u.workspaceId === workspaceId)
    .filter((u) => u.state !== 'stopped' || u.intents.some((i) => i.serviceId && i.state !== 'abandoned'))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const latest = mine.at(-1);
  if (!latest) return { kind: 'not-uploaded', upload: null };
  for (const upload of mine) {
    const rejected = upload.intents.find((i) => i.state === 'ERROR' && !i.correctedByUpload);
    if (rejected) return { kind: 'needs-repair', upload: about(upload, rejected.intentId) };
  }
  const correction = mine.filter((u) => u.corrects !== null).at(-1);
  if (correction) return { kind: 'corrected', upload: about(latest, null) };
  return { kind: 'uploaded', upload: about(latest, null) };
}
