/**
 * The fast xlsx reader met something it does not handle (encryption, Zip64, Strict OOXML,
 * prefixed XML); the caller falls back to SheetJS. The message completes "because …".
 */
export class FastReaderUnsupported extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'FastReaderUnsupported';
  }
}
