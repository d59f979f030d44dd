/**
 * Puts text on the clipboard from a click. It goes through a copy event, as the grid's Ctrl+C does,
 * rather than navigator.clipboard: the app grants pages no permissions (the clipboard ones
 * included), and a copy event started by the person's click needs none. Returns whether the
 * browser ran the copy.
 */
export function copyText(text: string): boolean {
  const put = (event: ClipboardEvent) => {
    event.clipboardData?.setData('text/plain', text);
    event.preventDefault();
  };
  document.addEventListener('copy', put, { once: true });
  try {
    return document.execCommand('copy');
  } finally {
    document.removeEventListener('copy', put);
  }
}
