/**
 * The imported file's size and SHA-256 (hex), for the audit trail's import entry. Where the page has
 * no Web Crypto (not a secure context), only the size is given: the entry then says the hash is unknown.
 */
export async function fileDigest(bytes: Uint8Array): Promise<{ fileBytes: number; sha256?: string }> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return { fileBytes: bytes.byteLength };
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes as BufferSource));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return { fileBytes: bytes.byteLength, sha256: hex };
}
