/*
 * Whether the connection to the team database is encrypted, in the words the header, Settings and
 * the Test button use. Plaintext to a server on this computer crosses no network: no warning there.
 */

export interface TeamEncryptionSeen {
  encrypted: boolean;
  /** TLSv1.3, TLSv1.2, …; null when not encrypted. */
  protocol: string | null;
}

export const NOT_ENCRYPTED_ADVICE =
  'anyone on the network between here and the server could read what is sent; ask your admin for TLS and add ?sslmode=verify-full&sslrootcert=… to the address';

/** "encrypted (TLSv1.3)", "not encrypted (the server is on this computer)", or the warning. */
export function encryptionInWords(encryption: TeamEncryptionSeen | null, local: boolean): string {
  if (!encryption) return 'encryption not known';
  if (encryption.encrypted) return `encrypted${encryption.protocol ? ` (${encryption.protocol})` : ''}`;
  return local ? 'not encrypted (the server is on this computer)' : `not encrypted: ${NOT_ENCRYPTED_ADVICE}`;
}

/** Whether the connection deserves a warning: plaintext to a server across a network. */
export function plaintextOverNetwork(encryption: TeamEncryptionSeen | null, local: boolean): boolean {
  return encryption !== null && !encryption.encrypted && !local;
}
