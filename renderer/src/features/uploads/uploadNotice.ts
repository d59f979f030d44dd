/*
 * A line for Uploads to show when it opens just after the upload dialog submitted an upload ("Submitted
 * for approval …"). Read as often as the page mounts (React may mount it twice) for a short while,
 * then gone; the next upload replaces or clears it. It names its upload, so the page shows it only
 * while that upload still waits: once approved, rejected or sent, the upload's own line says so.
 */
const KEY = 'dd.uploadNotice';
/** How long after the upload the line still shows when Uploads opens. */
const FRESH_MS = 2 * 60_000;

export interface UploadNotice {
  text: string;
  /** The upload it speaks of. */
  uploadId?: string;
}

export function leaveUploadNotice(notice: UploadNotice | null): void {
  if (notice === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify({ ...notice, at: Date.now() }));
}

/** The line left for Uploads, while it is fresh. */
export function takeUploadNotice(): UploadNotice | null {
  try {
    const left = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as (UploadNotice & { at: number }) | null;
    if (left && typeof left.text === 'string' && Date.now() - left.at < FRESH_MS)
      return { text: left.text, ...(typeof left.uploadId === 'string' ? { uploadId: left.uploadId } : {}) };
  } catch {
    // Not ours: nothing to show.
  }
  sessionStorage.removeItem(KEY);
  return null;
}

/** Whether the notice still holds: its upload has not been listed yet, or still waits for approval. */
export function noticeStillHolds(
  notice: UploadNotice,
  uploads: readonly { uploadId: string; state: string }[] | null,
): boolean {
  if (!notice.uploadId || !uploads) return true;
  const upload = uploads.find((u) => u.uploadId === notice.uploadId);
  return !upload || upload.state === 'waiting-approval';
}
