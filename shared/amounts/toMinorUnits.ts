import type { AmountUnit, DecimalParts } from './types';

export type MinorUnitsResult =
  | { ok: true; minor: number }
  | { ok: false; code: 'AMOUNT_TOO_PRECISE' | 'AMOUNT_MINOR_NOT_WHOLE' | 'AMOUNT_TOO_LARGE' }
  | { ok: false; code: 'AMOUNT_ZERO' | 'AMOUNT_NEGATIVE' };

/**
 * Exact conversion of a decimal to an integer count of minor units (cents) by moving digits,
 * never by multiplying floats. Trailing zeros beyond the currency's digits are fine ("10.500" USD);
 * any other extra digit would need rounding and is refused.
 */
export function toMinorUnits(parts: DecimalParts, digits: number, unit: AmountUnit): MinorUnitsResult {
  const allowed = unit === 'major' ? digits : 0;
  const frac = parts.fracDigits;
  if (frac.length > allowed && !/^0*$/.test(frac.slice(allowed))) {
    return { ok: false, code: unit === 'major' ? 'AMOUNT_TOO_PRECISE' : 'AMOUNT_MINOR_NOT_WHOLE' };
  }
  const kept = frac.slice(0, allowed).padEnd(allowed, '0');
  const digitsText = parts.intDigits + kept;
  if (digitsText.length <= 15) {
    // Up to 15 digits a double holds the number exactly; leading zeros count for nothing.
    const value = Number(digitsText);
    if (value === 0) return { ok: false, code: 'AMOUNT_ZERO' };
    if (parts.negative) return { ok: false, code: 'AMOUNT_NEGATIVE' };
    return { ok: true, minor: value };
  }
  const minorText = digitsText.replace(/^0+/, '');
  if (minorText === '') return { ok: false, code: 'AMOUNT_ZERO' };
  if (parts.negative) return { ok: false, code: 'AMOUNT_NEGATIVE' };
  // Beyond 2^53 an integer no longer survives JSON as itself; no real donation comes near it.
  if (minorText.length > 16 || Number(minorText) > Number.MAX_SAFE_INTEGER) {
    return { ok: false, code: 'AMOUNT_TOO_LARGE' };
  }
  return { ok: true, minor: Number(minorText) };
}

/** Rounds half up to `digits` decimals, as text in the given decimal mark, for "enter 10.01" hints. */
export function roundedSuggestion(parts: DecimalParts, digits: number, decimalMark: string): string {
  const padded = parts.fracDigits.padEnd(digits + 1, '0');
  let scaled = BigInt((parts.intDigits || '0') + padded.slice(0, digits));
  if (padded.charCodeAt(digits) - 48 >= 5) scaled += 1n;
  const text = scaled.toString().padStart(digits + 1, '0');
  return digits === 0 ? text : `${text.slice(0, -digits)}${decimalMark}${text.slice(-digits)}`;
}

/** Minor units as a plain decimal string in the currency's digits: 123456, 2 → "1234.56". */
export function minorToDecimalString(minor: number, digits: number): string {
  const negative = minor < 0;
  const text = Math.abs(Math.trunc(minor))
    .toString()
    .padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${body}` : body;
}
