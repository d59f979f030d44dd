/** How a file writes numbers: "1,234.56" is dot-decimal, "1.234,56" and "1 234,56" are comma-decimal. */
export type NumberStyle = 'dot-decimal' | 'comma-decimal';

/** "major": 25.50 means 25 dollars 50 cents. "minor": the sheet already holds cents (2550). */
export type AmountUnit = 'major' | 'minor';

/** A decimal number as written, split into digit strings so no float ever touches it. */
export interface DecimalParts {
  negative: boolean;
  /** Integer digits without leading zeros; '' means zero. */
  intDigits: string;
  /** Fraction digits exactly as typed, trailing zeros kept. */
  fracDigits: string;
  /** An ISO 4217 code written in the cell ("USD 25", "25 eur"), upper-cased. */
  currencyCode?: string;
  /** A currency symbol written in the cell ("$25", "25 €"). */
  symbol?: string;
}

export type AmountErrorCode =
  | 'AMOUNT_EMPTY'
  | 'AMOUNT_NOT_A_NUMBER'
  | 'AMOUNT_SEPARATOR_MISMATCH'
  | 'AMOUNT_ZERO'
  | 'AMOUNT_NEGATIVE'
  | 'AMOUNT_TOO_PRECISE'
  | 'AMOUNT_FLOAT_NOISE'
  | 'AMOUNT_MINOR_NOT_WHOLE'
  | 'AMOUNT_TOO_LARGE'
  | 'AMOUNT_CURRENCY_MISMATCH'
  | 'AMOUNT_CURRENCY_UNKNOWN';

/** Something the person should know about an accepted amount (never blocks). */
export interface AmountNote {
  code: 'AMOUNT_FLOAT_ARTEFACT';
  message: string;
}

export type AmountResult =
  | { ok: true; minor: number; currencyCode: string; notes: AmountNote[] }
  | { ok: false; code: AmountErrorCode; message: string };
