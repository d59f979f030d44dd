/**
 * Symbols people type next to amounts, and the currencies each may stand for. A symbol that stands
 * for several currencies ("$") never chooses one by itself: it only has to agree with the row's
 * currency. Longer symbols come first so "US$" wins over "$".
 */
export const CURRENCY_SYMBOLS: ReadonlyArray<readonly [symbol: string, codes: readonly string[]]> = [
  ['US$', ['USD']],
  ['CA$', ['CAD']],
  ['AU$', ['AUD']],
  ['NZ$', ['NZD']],
  ['HK$', ['HKD']],
  ['R$', ['BRL']],
  ['C$', ['CAD', 'NIO']],
  ['A$', ['AUD']],
  ['S$', ['SGD']],
  [
    '$',
    [
      'USD',
      'CAD',
      'AUD',
      'NZD',
      'SGD',
      'HKD',
      'MXN',
      'ARS',
      'CLP',
      'COP',
      'TWD',
      'JMD',
      'BSD',
      'BBD',
      'BMD',
      'BZD',
      'FJD',
      'GYD',
      'KYD',
      'LRD',
      'NAD',
      'SBD',
      'SRD',
      'TTD',
      'XCD',
      'UYU',
      'DOP',
      'CUP',
      'BND',
    ],
  ],
  ['€', ['EUR']],
  ['£', ['GBP', 'GIP', 'FKP', 'SHP', 'EGP']],
  ['¥', ['JPY', 'CNY']],
  ['₹', ['INR']],
  ['₩', ['KRW']],
  ['₪', ['ILS']],
  ['₺', ['TRY']],
  ['₽', ['RUB']],
  ['₱', ['PHP']],
  ['₫', ['VND']],
  ['₦', ['NGN']],
  ['₴', ['UAH']],
  ['zł', ['PLN']],
  ['Kč', ['CZK']],
  ['Fr.', ['CHF']],
  ['kr', ['SEK', 'NOK', 'DKK', 'ISK']],
];

/** The currencies a symbol may stand for, or undefined when `text` is not a known symbol. */
export function currenciesForSymbol(text: string): readonly string[] | undefined {
  return SYMBOL_CODES.get(text);
}

/** Looked up for every currency cell of a file: one map lookup, not a walk through the list. */
const SYMBOL_CODES = new Map(CURRENCY_SYMBOLS);
