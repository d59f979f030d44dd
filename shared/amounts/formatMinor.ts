import { currencyDigits } from './currencies';
import { minorToDecimalString } from './toMinorUnits';

/**
 * Formats integer minor units for people, per the currency's ISO digits: (123456, 'USD', 'en-US')
 * → "$1,234.56"; (1234567, 'KWD', 'de-DE') → "1.234,567 KWD". The decimal string is handed to Intl
 * as text so no float ever rounds it. Falls back to "1234.56 XYZ" where Intl cannot help.
 */
// Creating a NumberFormat costs far more than using one; summaries format many amounts per screen.
const formatters = new Map<string, Intl.NumberFormat | null>();

function formatterFor(currency: string, digits: number, locale?: string): Intl.NumberFormat | null {
  const key = `${locale ?? ''}|${currency}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    try {
      formatter = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    } catch {
      formatter = null;
    }
    if (formatters.size > 500) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter;
}

export function formatMinor(amount: number, currency: string, locale?: string): string {
  const digits = currencyDigits(currency) ?? 2;
  const decimal = minorToDecimalString(amount, digits);
  const formatter = formatterFor(currency, digits, locale);
  if (!formatter) return `${decimal} ${currency}`;
  try {
    return formatter.format(decimal as Intl.StringNumericLiteral);
  } catch {
    return `${decimal} ${currency}`;
  }
}

/** Minor units as the plain decimal a person would type back into a sheet: (2550, 'USD') → "25.50". */
export function minorToMajorString(amount: number, currency: string): string {
  return minorToDecimalString(amount, currencyDigits(currency) ?? 2);
}
