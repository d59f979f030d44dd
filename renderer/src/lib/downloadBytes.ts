/** Hands bytes to the browser as a download named `fileName` (the user's Downloads folder). */
export function downloadBytes(fileName: string, bytes: Uint8Array | ArrayBuffer, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}
