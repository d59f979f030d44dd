/**
 * Numbers are shown the way Excel's General format shows them: 15 significant digits, which hides
 * binary artefacts (0.1 + 0.2 is stored as 0.30000000000000004 but a person sees 0.3), then the
 * shortest text that round-trips.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return String(Number(value.toPrecision(15)));
}

/**
 * A whole number shown by a zero-padding format ("00000"): 7 is "00007", as Excel shows it. Anything
 * but a whole number reads as General (never rounded as the format would: an amount stays exact).
 */
export function zeroPaddedText(value: number, width: number): string {
  if (!Number.isSafeInteger(value)) return formatNumber(value);
  const digits = String(Math.abs(value));
  const padded = digits.length >= width ? digits : '0'.repeat(width - digits.length) + digits;
  return value < 0 ? `-${padded}` : padded;
}

const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const DOT = 46;

/**
 * Formats the text of an xlsx `<v>` element. Most values are already canonical ("12.5", "-3"), and
 * returning them untouched avoids a parse and a print per cell in the hot loop.
 */
export function formatNumericText(raw: string): string {
  const length = raw.length;
  // From 13 characters V8 returns a slice that keeps the whole XML chunk alive; printing makes a copy.
  if (length === 0) return '';
  if (length > 12) return formatParsed(raw);
  let i = raw.charCodeAt(0) === MINUS ? 1 : 0;
  if (i === length) return formatParsed(raw);
  const first = raw.charCodeAt(i);
  // A leading zero is canonical only as "0" or "0.xxx".
  if (first === ZERO && i + 1 < length && raw.charCodeAt(i + 1) !== DOT) return formatParsed(raw);
  let sawDot = false;
  for (; i < length; i++) {
    const code = raw.charCodeAt(i);
    if (code === DOT) {
      if (sawDot || i === length - 1) return formatParsed(raw);
      sawDot = true;
    } else if (code < ZERO || code > NINE) {
      return formatParsed(raw);
    }
  }
  if (sawDot && raw.charCodeAt(length - 1) === ZERO) return formatParsed(raw);
  if (raw === '-0') return '0';
  return raw;
}

function formatParsed(raw: string): string {
  if (raw.trim() === '') return '';
  const value = Number(raw.trim());
  return Number.isNaN(value) ? raw : formatNumber(value);
}
