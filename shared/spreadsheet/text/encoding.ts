import type { TextEncoding } from '../types';
import { decodeWindows1252 } from './windows1252';

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
  hadBom: boolean;
}

/** Bytes looked at to recognise BOM-less UTF-16 by its NUL bytes. */
const NUL_SAMPLE_BYTES = 4096;

/**
 * Guesses UTF-16 without a BOM from where NUL bytes fall: text that is mostly ASCII has a NUL in
 * every other byte, odd positions for little-endian, even ones for big-endian. 8-bit encodings
 * practically never contain NUL, so a clear pattern is safe to trust.
 */
function guessUtf16WithoutBom(bytes: Uint8Array): TextEncoding | undefined {
  const length = Math.min(bytes.length, NUL_SAMPLE_BYTES) & ~1;
  if (length < 4) return undefined;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenNuls++;
    if (bytes[i + 1] === 0) oddNuls++;
  }
  const pairs = length / 2;
  if (oddNuls > pairs * 0.3 && evenNuls < pairs * 0.05) return 'utf-16le';
  if (evenNuls > pairs * 0.3 && oddNuls < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/**
 * Decodes a delimited text file: a BOM decides first, then the NUL pattern of UTF-16, then strict
 * UTF-8; bytes that are not valid UTF-8 are read as Windows-1252, what Excel on Windows writes
 * when it saves "CSV" without UTF-8. The input bytes are only viewed, never changed.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8', hadBom: true };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      text: new TextDecoder('utf-16le').decode(bytes.subarray(2)),
      encoding: 'utf-16le',
      hadBom: true,
    };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      text: new TextDecoder('utf-16be').decode(bytes.subarray(2)),
      encoding: 'utf-16be',
      hadBom: true,
    };
  }
  const utf16 = guessUtf16WithoutBom(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), encoding: utf16, hadBom: false };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      encoding: 'utf-8',
      hadBom: false,
    };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252', hadBom: false };
  }
}
