/**
 * Counts in messages, pluralised by the language's own rules (Intl.PluralRules), so "1 row" and
 * "2 rows" come out right now and French or Spanish only need their own word forms later.
 * Every user-facing count goes through `count()` or `plural()`: never `${n} rows`.
 */

export type PluralForms = {
  one: string;
  other: string;
  zero?: string;
  two?: string;
  few?: string;
  many?: string;
};

const rulesByLocale = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();
let currentLocale = 'en';

/** The language messages are built for (English until translations exist). */
export function setMessageLocale(locale: string): void {
  currentLocale = locale;
}

function rules(locale: string): Intl.PluralRules {
  let r = rulesByLocale.get(locale);
  if (!r) {
    r = new Intl.PluralRules(locale);
    rulesByLocale.set(locale, r);
  }
  return r;
}

function numberFormat(locale: string): Intl.NumberFormat {
  let f = numberFormats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale);
    numberFormats.set(locale, f);
  }
  return f;
}

/** The form of a word for a count: plural(1, {one: 'row', other: 'rows'}) → 'row'. */
export function plural(n: number, forms: PluralForms, locale = currentLocale): string {
  const category = rules(locale).select(n) as keyof PluralForms;
  return forms[category] ?? forms.other;
}

/**
 * A count with its noun: count(1, 'row') → '1 row'; count(1234, 'donation') → '1,234 donations'.
 * The plural is the noun plus "s" unless given (count(2, 'was', 'were') style forms use plural()).
 */
export function count(n: number, one: string, other = `${one}s`, locale = currentLocale): string {
  return `${numberFormat(locale).format(n)} ${plural(n, { one, other }, locale)}`;
}
