/**
 * Windows-1252 differs from Latin-1 only in 0x80–0x9F (€, smart quotes, dashes…). Decoded by hand
 * because Node 20's TextDecoder('windows-1252') treats those bytes as Latin-1 control characters.
 */
const HIGH_CONTROL_RANGE: readonly number[] = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d,
  0x017d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x9d, 0x017e, 0x0178,
];

const CHUNK = 8192;

export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const codes = new Uint16Array(Math.min(bytes.length, CHUNK));
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    const end = Math.min(bytes.length, offset + CHUNK);
    for (let i = offset; i < end; i++) {
      const byte = bytes[i] as number;
      codes[i - offset] = byte >= 0x80 && byte <= 0x9f ? (HIGH_CONTROL_RANGE[byte - 0x80] as number) : byte;
    }
    parts.push(String.fromCharCode(...codes.subarray(0, end - offset)));
  }
  return parts.join('');
}
