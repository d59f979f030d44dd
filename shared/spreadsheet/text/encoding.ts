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
export function guessUtf16WithoutBom(bytes: Uint8Array): TextEncoding | undefined {
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
 * Guesses UTF-32 without a BOM: mostly-ASCII text has three NULs in every four bytes, after the
 * character in little-endian, before it in big-endian.
 */
export function guessUtf32WithoutBom(bytes: Uint8Array): TextEncoding | undefined {
  const length = Math.min(bytes.length, NUL_SAMPLE_BYTES) & ~3;
  if (length < 8) return undefined;
  let little = 0;
  let big = 0;
  for (let i = 0; i < length; i += 4) {
    if (bytes[i + 2] === 0 && bytes[i + 3] === 0 && bytes[i] !== 0) little++;
    if (bytes[i] === 0 && bytes[i + 1] === 0 && bytes[i + 3] !== 0) big++;
  }
  const units = length / 4;
  if (little > units * 0.9) return 'utf-32le';
  if (big > units * 0.9) return 'utf-32be';
  return undefined;
}

/** UTF-32 by hand: the Encoding Standard (and so TextDecoder) has no UTF-32. */
function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: string[] = [];
  const codes: number[] = [];
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const code = view.getUint32(i, littleEndian);
    codes.push(code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code);
    if (codes.length === 8192) {
      parts.push(String.fromCodePoint(...codes));
      codes.length = 0;
    }
  }
  parts.push(String.fromCodePoint(...codes));
  return parts.join('');
}

/**
 * Whether some double-byte Shift-JIS character has a second byte of 0x80 or more. Kana always do
 * and about two kanji in three do. Western text read as Shift-JIS pairs an accented letter
 * (é is 0xE9) with the ASCII letter after it ("Réunion" would be "R騏nion"), so every second byte
 * is ASCII: on single accented lines of Latin-1 text that happens about one time in four.
 */
function hasHighSecondByte(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i]!;
    if (lead < 0x81 || (lead >= 0xa0 && lead <= 0xdf)) continue;
    if ((bytes[i + 1] ?? 0) >= 0x80) return true;
    i++;
  }
  return false;
}

/**
 * Shift-JIS (Japanese payroll and HR exports) when the bytes decode as it without error and the
 * result reads as Japanese: full-width kana, kanji or punctuation, with little else outside ASCII,
 * and at least one double-byte character that Western text could not have made (hasHighSecondByte).
 * Western text in Windows-1252 rarely decodes strictly; when it does (capitals such as "Å" are
 * half-width katakana in Shift-JIS, "é" + a letter a kanji) it is not taken.
 */
function decodeShiftJis(bytes: Uint8Array): string | undefined {
  if (!hasHighSecondByte(bytes)) return undefined;
  let text: string;
  try {
    text = new TextDecoder('shift_jis', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  let japanese = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if ((code >= 0x3000 && code <= 0x9fff) || (code >= 0xff01 && code <= 0xff5e)) japanese++;
    else if (code < 0xff61 || code > 0xff9f) other++;
  }
  return japanese > 0 && japanese >= other * 4 ? text : undefined;
}

/**
 * Decodes a delimited text file: a BOM decides first (UTF-32 before UTF-16, whose little-endian BOM
 * begins the same way), then the NUL patterns of UTF-32 and UTF-16, then strict UTF-8; bytes that
 * are not valid UTF-8 are read as Shift-JIS when they read as Japanese, otherwise as Windows-1252,
 * what Excel on Windows writes when it saves "CSV" without UTF-8. The input bytes are only viewed,
 * never changed.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) {
    return { text: decodeUtf32(bytes.subarray(4), true), encoding: 'utf-32le', hadBom: true };
  }
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) {
    return { text: decodeUtf32(bytes.subarray(4), false), encoding: 'utf-32be', hadBom: true };
  }
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
  const utf32 = guessUtf32WithoutBom(bytes);
  if (utf32) return { text: decodeUtf32(bytes, utf32 === 'utf-32le'), encoding: utf32, hadBom: false };
  const utf16 = guessUtf16WithoutBom(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), encoding: utf16, hadBom: false };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      encoding: 'utf-8',
      hadBom: false,
    };
  } catch {
    const japanese = decodeShiftJis(bytes);
    if (japanese !== undefined) return { text: japanese, encoding: 'shift_jis', hadBom: false };
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252', hadBom: false };
  }
}

/**
 * For text read in pieces: whether bytes that are not UTF-8 are Shift-JIS, judged on a sample (the
 * first megabytes, cut at a line end) by the same rule decodeText applies to a whole file.
 */
export function readsAsShiftJis(sample: Uint8Array): boolean {
  return decodeShiftJis(sample) !== undefined;
}
