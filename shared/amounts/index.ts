/** Exact money: what people type → integer minor units, and back for display. Never floats. */
export type {
  AmountErrorCode,
  AmountNote,
  AmountResult,
  AmountUnit,
  DecimalParts,
  NumberStyle,
} from './types';
/** ISO 4217 active currencies with their minor-unit digits. */
export { CURRENCY_CODES, CURRENCY_DIGITS, currencyDigits, isCurrencyCode } from './currencies';
/** Currency symbols ("$", "€") and the codes each may stand for. */
export { CURRENCY_SYMBOLS, currenciesForSymbol } from './currencySymbols';
/** Parse an amount cell (text or number) into minor units of a currency, refusing what needs rounding. */
export { parseAmount, type ParseAmountOptions } from './parseAmount';
/** Parse number text in a given style into digit strings (no currency rules). */
export { parseDecimalText, type DecimalTextFailure, type DecimalTextResult } from './decimalText';
/** Guess 'dot-decimal' or 'comma-decimal' from a file's amount cells. */
export { detectNumberStyle } from './detectNumberStyle';
/** Display minor units for people, or as plain decimal text. */
export { formatMinor, minorToMajorString } from './formatMinor';
/** Low-level exact conversion helpers. */
export { minorToDecimalString, roundedSuggestion, toMinorUnits } from './toMinorUnits';
export { decimalPartsOfNumber, withoutFloatArtefact } from './numberInput';
