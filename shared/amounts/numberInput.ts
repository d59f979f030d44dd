import type { DecimalParts } from './types';

/**
 * Expands the shortest round-trip text of a number ("1.5e-7", "1e+21") into plain digit strings.
 * `String(n)` is the shortest decimal that reads back as the same double, so "25.5" stays "25.5"
 * and no binary noise is invented.
 */
export function decimalPartsOfNumber(value: number): DecimalParts {
  const negative = value < 0 || Object.is(value, -0);
  return { negative, ...splitDecimalString(String(Math.abs(value))) };
}

function splitDecimalString(text: string): { intDigits: string; fracDigits: string } {
  const [mantissa = '', exponentText] = text.split('e');
  const dot = mantissa.indexOf('.');
  let digits = dot >= 0 ? mantissa.slice(0, dot) + mantissa.slice(dot + 1) : mantissa;
  let pointAt = dot >= 0 ? dot : mantissa.length;
  pointAt += exponentText === undefined ? 0 : Number(exponentText);
  if (pointAt < 0) {
    digits = '0'.repeat(-pointAt) + digits;
    pointAt = 0;
  } else if (pointAt > digits.length) {
    digits = digits + '0'.repeat(pointAt - digits.length);
  }
  return { intDigits: digits.slice(0, pointAt).replace(/^0+/, ''), fracDigits: digits.slice(pointAt) };
}

/** Significant digits in a number's shortest text; 16–17 means the double carries binary noise. */
export function significantDigits(value: number): number {
  const parts = splitDecimalString(String(Math.abs(value)));
  return (parts.intDigits + parts.fracDigits).replace(/^0+/, '').replace(/0+$/, '').length;
}

/**
 * Spreadsheets compute in binary doubles and show 15 significant digits, so a formula that gives
 * 27.500000000000004 shows as 27.5. This returns the digits as the sheet shows them, or undefined
 * when the number has no such noise (then it was typed that way and must be taken as it is).
 */
export function withoutFloatArtefact(value: number): DecimalParts | undefined {
  if (significantDigits(value) <= 15) return undefined;
  const shown = Number(Math.abs(value).toPrecision(15));
  return { negative: value < 0, ...splitDecimalString(String(shown)) };
}
