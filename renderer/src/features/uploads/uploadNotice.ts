/** A line for Uploads to show once when it opens, left by the dialog that just submitted an upload. */
const KEY = 'dd.uploadNotice';

export function leaveUploadNotice(text: string): void {
  sessionStorage.setItem(KEY, text);
}

/** The line left for Uploads, if any (read once: it is gone after). */
export function takeUploadNotice(): string | null {
  const text = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return text;
}
