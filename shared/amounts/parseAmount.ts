import { currencyDigits, isCurrencyCode } from './currencies';
import { currenciesForSymbol } from './currencySymbols';
import { parseDecimalText } from './decimalText';
import { decimalPartsOfNumber, withoutFloatArtefact } from './numberInput';
import { minorToDecimalString, roundedSuggestion, toMinorUnits } from './toMinorUnits';
import type {
  AmountErrorCode,
  AmountNote,
  AmountResult,
  AmountUnit,
  DecimalParts,
  NumberStyle,
} from './types';

export interface ParseAmountOptions {
  /** Number style of the file; see detectNumberStyle. Default dot-decimal. */
  style?: NumberStyle;
  /** Default major. */
  unit?: AmountUnit;
  /**
   * A number from a formula with binary noise (27.500000000000004, 16–17 significant digits, which
   * nobody can type: spreadsheets keep 15). 'as-shown' (default) takes the 15-digit value the sheet
   * displays and adds a note; 'refuse' makes it an error asking to round in the sheet. A number
   * typed with too many decimals (10.005) is refused either way.
   */
  floatNoise?: 'as-shown' | 'refuse';
}

const fail = (code: AmountErrorCode, message: string): AmountResult => ({ ok: false, code, message });

/** How the amount is quoted back to the person: as they typed it, or as the sheet holds the number. */
function shown(input: unknown): string {
  if (typeof input === 'string') return input.trim();
  if (typeof input === 'number' || typeof input === 'bigint') return String(input);
  return String(input);
}

function currencyOfText(
  parts: DecimalParts,
  rowCurrency: string | undefined,
  quoted: string,
): AmountResult | string | undefined {
  const written = parts.currencyCode;
  if (written !== undefined && rowCurrency !== undefined && written !== rowCurrency) {
    return fail(
      'AMOUNT_CURRENCY_MISMATCH',
      `Amount "${quoted}" is written in ${written} but the row's currency is ${rowCurrency}. Correct whichever is wrong.`,
    );
  }
  const currency = rowCurrency ?? written;
  if (parts.symbol !== undefined) {
    const candidates = currenciesForSymbol(parts.symbol) ?? [];
    if (currency !== undefined && !candidates.includes(currency)) {
      return fail(
        'AMOUNT_CURRENCY_MISMATCH',
        `Amount "${quoted}" has the symbol ${parts.symbol}, which is not ${currency}. Remove the symbol or correct the currency.`,
      );
    }
  }
  return currency;
}

/**
 * Turns an amount cell (text as typed, or a number from the spreadsheet) into integer minor units of
 * `currency`, exactly. Refuses empty, zero, negative, non-numbers, and anything that would need
 * rounding, each with a code and a sentence that says what to do. `currency` may be undefined when
 * the cell itself names it ("USD 25"); the currency used is returned.
 */
export function parseAmount(
  input: unknown,
  currency: string | undefined,
  options: ParseAmountOptions = {},
): AmountResult {
  const style = options.style ?? 'dot-decimal';
  const unit = options.unit ?? 'major';
  const quoted = shown(input);
  const notes: AmountNote[] = [];
  let parts: DecimalParts;

  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) {
    return fail('AMOUNT_EMPTY', 'Amount is empty. Enter the donation amount.');
  }
  if (typeof input === 'number') {
    if (!Number.isFinite(input))
      return fail(
        'AMOUNT_NOT_A_NUMBER',
        `Amount "${quoted}" is not a number. Enter an amount such as 25.00.`,
      );
    parts = decimalPartsOfNumber(input);
  } else if (typeof input === 'bigint') {
    parts = {
      negative: input < 0n,
      intDigits: (input < 0n ? -input : input).toString().replace(/^0+/, ''),
      fracDigits: '',
    };
  } else if (typeof input === 'string') {
    const read = parseDecimalText(input, style);
    if (!read.ok) {
      const example = style === 'dot-decimal' ? '1,234.56' : '1.234,56';
      const advice =
        read.failure.code === 'AMOUNT_SEPARATOR_MISMATCH'
          ? ` This file writes numbers like ${example}; correct the cell or change the file's number style.`
          : ` Enter an amount such as ${style === 'dot-decimal' ? '25.00' : '25,00'}.`;
      return fail(read.failure.code, `Amount "${quoted}" ${read.failure.reason}.${advice}`);
    }
    parts = read.value;
  } else if (input instanceof Date) {
    return fail(
      'AMOUNT_NOT_A_NUMBER',
      `Amount "${quoted}" is a date, not a number. Check that the amount column is mapped correctly.`,
    );
  } else {
    return fail('AMOUNT_NOT_A_NUMBER', `Amount "${quoted}" is not a number. Enter an amount such as 25.00.`);
  }

  const resolved = currencyOfText(parts, currency, quoted);
  if (typeof resolved === 'object') return resolved;
  if (resolved === undefined || !isCurrencyCode(resolved)) {
    return fail(
      'AMOUNT_CURRENCY_UNKNOWN',
      resolved === undefined
        ? `Amount "${quoted}" has no currency. Add a currency column or set one currency for the file.`
        : `Amount "${quoted}" cannot be checked because "${resolved}" is not a currency code. Correct the currency first.`,
    );
  }
  const digits = currencyDigits(resolved) as number;

  let minor = toMinorUnits(parts, digits, unit);
  if (
    !minor.ok &&
    (minor.code === 'AMOUNT_TOO_PRECISE' || minor.code === 'AMOUNT_MINOR_NOT_WHOLE') &&
    typeof input === 'number'
  ) {
    // A formula's binary noise (0.1 + 0.2 = 0.30000000000000004): take the value the sheet shows.
    const asShown = withoutFloatArtefact(input);
    const retried = asShown && toMinorUnits(asShown, digits, unit);
    if (retried && retried.ok) {
      const shownValue =
        unit === 'major' ? minorToDecimalString(retried.minor, digits) : String(retried.minor);
      if (options.floatNoise === 'refuse') {
        return fail(
          'AMOUNT_FLOAT_NOISE',
          `Amount ${quoted} comes from a formula with rounding noise. Round it in your sheet (for example with ROUND) or enter ${shownValue}.`,
        );
      }
      minor = retried;
      notes.push({
        code: 'AMOUNT_FLOAT_ARTEFACT',
        message: `Amount ${quoted} carries spreadsheet rounding noise; it was read as ${shownValue}, the value the sheet shows.`,
      });
    }
  }
  if (minor.ok) return { ok: true, minor: minor.minor, currencyCode: resolved, notes };

  const mark = style === 'comma-decimal' && typeof input === 'string' ? ',' : '.';
  switch (minor.code) {
    case 'AMOUNT_ZERO':
      return fail('AMOUNT_ZERO', `Amount "${quoted}" is zero. Enter the amount donated, or delete the row.`);
    case 'AMOUNT_NEGATIVE':
      return fail(
        'AMOUNT_NEGATIVE',
        // Accounting sheets write a negative amount in brackets: "(20.00)" has no minus sign to remove.
        typeof input === 'string' && /^\s*\(.*\)\s*$/.test(input)
          ? `Amount "${quoted}" is in brackets, which means negative. Donations must be positive: remove the brackets or delete the row.`
          : `Amount "${quoted}" is negative. Donations must be positive: remove the minus sign or delete the row.`,
      );
    case 'AMOUNT_TOO_LARGE':
      return fail('AMOUNT_TOO_LARGE', `Amount "${quoted}" is too large to be a donation. Check the cell.`);
    case 'AMOUNT_MINOR_NOT_WHOLE':
      return fail(
        'AMOUNT_MINOR_NOT_WHOLE',
        `Amount "${quoted}" has decimals, but this file's amounts are in minor units (cents), which are whole numbers. Correct the cell or switch the amount unit to major.`,
      );
    case 'AMOUNT_TOO_PRECISE':
      return fail(
        'AMOUNT_TOO_PRECISE',
        digits === 0
          ? `Amount "${quoted}" has decimals, but ${resolved} has none. Round it in your sheet or enter ${roundedSuggestion(parts, 0, mark)}.`
          : `Amount "${quoted}" has more decimals than ${resolved} allows (${digits}). Round it in your sheet or enter ${roundedSuggestion(parts, digits, mark)}.`,
      );
  }
}
