/*
 * A line for Uploads to show when it opens just after the upload dialog submitted an upload ("Submitted
 * for approval …"). Read as often as the page mounts (React may mount it twice) for a short while,
 * then gone; the next upload replaces or clears it.
 */
const KEY = 'dd.uploadNotice';
/** How long after the upload the line still shows when Uploads opens. */
const FRESH_MS = 2 * 60_000;

export function leaveUploadNotice(text: string | null): void {
  if (text === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify({ text, at: Date.now() }));
}

/** The line left for Uploads, while it is fresh. */
export function takeUploadNotice(): string | null {
  try {
    const left = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { text: string; at: number } | null;
    if (left && Date.now() - left.at < FRESH_MS) return left.text;
  } catch {
    // Not ours: nothing to show.
  }
  sessionStorage.removeItem(KEY);
  return null;
}
