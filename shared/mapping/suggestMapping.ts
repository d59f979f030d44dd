import { currenciesForSymbol, isCurrencyCode } from '../amounts';
import { CAUSE_ID, isEmail } from '../donation';
import { headerWords } from './headers';
import { DISCRIMINATING_WORDS, NOISE_WORDS, SYNONYMS } from './synonyms';
import { FIELD_TARGETS, type FieldTarget, type MappingTarget } from './targets';
import type { MappingTemplate } from './template';
import { toMetadataKey, uniqueMetadataKey } from './toMetadataKey';

/** Below this a match is offered as an alternative, not chosen. */
export const AUTO_MATCH_THRESHOLD = 0.6;

export interface TargetCandidate {
  target: FieldTarget;
  /** 0–1: 1 is an exact synonym, ~0.7 a match by the column's values or a looser phrase. */
  confidence: number;
  reason: string;
}

export interface ColumnSuggestion {
  index: number;
  header: string;
  /** The chosen target, if any reached AUTO_MATCH_THRESHOLD and was not taken by a better column. */
  target?: FieldTarget;
  confidence: number;
  reason: string;
  /** Other plausible targets, best first, for the confirmation screen. */
  alternatives: TargetCandidate[];
  /** A valid, unique metadata key made from the header, for when the user keeps the column as metadata. */
  metadataKey: string;
}

export interface CurrencyHint {
  currencyCode: string;
  header: string;
  /** true for an ISO code or € in the header; false for "$" (which dollar?). */
  certain: boolean;
}

export interface MappingSuggestion {
  columns: ColumnSuggestion[];
  currencyHint?: CurrencyHint;
  /** A ready template: chosen columns (plus metadata for the rest if asked), the currency hint as a
   * fixed currency when no column holds one, and amountUnit "minor" when the amount header says cents. */
  template: MappingTemplate;
}

export interface SuggestOptions {
  /** A few data rows (cells in header order) so columns can also be recognised by their values. */
  samples?: ReadonlyArray<ReadonlyArray<unknown>>;
  /** Map every column left over to metadata under its made-up key. Default false. */
  unmappedAsMetadata?: boolean;
}

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const g = text.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Sørensen–Dice similarity of two strings' letter pairs: catches typos such as "Ammount", "Recipent". */
export function diceSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const ga = bigrams(a);
  const gb = bigrams(b);
  let shared = 0;
  for (const [g, n] of ga) shared += Math.min(n, gb.get(g) ?? 0);
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

function scorePhrase(
  words: readonly string[],
  phrase: string,
  weight: number,
): { score: number; reason: string } | undefined {
  const joined = words.join(' ');
  if (joined === phrase) return { score: weight, reason: `header is "${phrase}"` };
  const compact = joined.replace(/ /g, '');
  const phraseCompact = phrase.replace(/ /g, '');
  if (compact === phraseCompact) return { score: weight * 0.97, reason: `header is "${phrase}"` };
  const phraseWords = phrase.split(' ');
  const changesMeaning = words.some((w) => DISCRIMINATING_WORDS.has(w) && !phraseWords.includes(w));
  if (changesMeaning) return undefined;
  if (phraseWords.every((w) => words.includes(w))) {
    const extra = words.length - phraseWords.length;
    return { score: weight * (extra === 1 ? 0.8 : 0.7), reason: `header contains "${phrase}"` };
  }
  // Typos only on headers of similar length; short words are too easy to confuse.
  if (compact.length >= 5 && Math.abs(compact.length - phraseCompact.length) <= 2) {
    const similarity = diceSimilarity(compact, phraseCompact);
    if (similarity >= 0.75)
      return { score: weight * similarity * 0.85, reason: `header looks like "${phrase}"` };
  }
  return undefined;
}

/** "Amount (USD)" → "Amount": the currency is a hint about the values, not part of the column's name. */
function withoutCurrencyMarks(header: string): string {
  const stripped = header
    .replace(/[([]\s*([A-Za-z]{3})\s*[)\]]/g, (all, code: string) =>
      isCurrencyCode(code.toUpperCase()) ? ' ' : all,
    )
    .replace(/\b([A-Z]{3})\b/g, (all, code: string) => (isCurrencyCode(code) && code !== 'ALL' ? ' ' : all))
    .replace(/[$€£¥]/g, ' ');
  return stripped.trim() === '' ? header : stripped;
}

/** What the header alone says each target is worth, best first. */
export function scoreHeader(header: string): TargetCandidate[] {
  const words = headerWords(withoutCurrencyMarks(header)).filter((w) => !NOISE_WORDS.has(w));
  if (words.length === 0) return [];
  const out: TargetCandidate[] = [];
  for (const target of FIELD_TARGETS) {
    let best: { score: number; reason: string } | undefined;
    for (const [phrase, weight] of SYNONYMS[target]) {
      const scored = scorePhrase(words, phrase, weight);
      if (scored && (!best || scored.score > best.score)) best = scored;
    }
    if (best) out.push({ target, confidence: Math.round(best.score * 100) / 100, reason: best.reason });
  }
  return out.sort((a, b) => b.confidence - a.confidence);
}

const ISO_DATE = /^\d{4}-\d{1,2}-\d{1,2}(?:[T ]|$)/;

/** Recognises a column by its values when the header says nothing useful ("Col 3", "ID"). */
function scoreValues(values: readonly unknown[]): TargetCandidate | undefined {
  const texts = values
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map((v) => v.trim());
  if (texts.length < 3) return undefined;
  const share = (test: (t: string) => boolean): number => texts.filter(test).length / texts.length;
  if (share(isEmail) >= 0.8)
    return { target: 'donor.email', confidence: 0.7, reason: 'values are email addresses' };
  // A date written 2026-11-03 has the shape of a cause id (country code, dash, digits): not one.
  const looksLikeCauseId = (t: string) => !ISO_DATE.test(t) && CAUSE_ID.test(t.split('/')[0] ?? '');
  if (share(looksLikeCauseId) >= 0.8) {
    return { target: 'recipientId', confidence: 0.7, reason: 'values look like cause ids' };
  }
  if (share((t) => isCurrencyCode(t.toUpperCase())) >= 0.8) {
    return { target: 'currencyCode', confidence: 0.7, reason: 'values are currency codes' };
  }
  return undefined;
}

/** A currency named in a header: "Amount (USD)", "Gift EUR", "Donation ($)", "Betrag €". */
export function currencyHintOf(header: string): { currencyCode: string; certain: boolean } | undefined {
  for (const m of header.matchAll(/[([]\s*([A-Za-z]{3})\s*[)\]]|\b([A-Z]{3})\b/g)) {
    const code = (m[1] ?? m[2] ?? '').toUpperCase();
    if (isCurrencyCode(code) && code !== 'ALL') return { currencyCode: code, certain: true };
  }
  if (header.includes('€')) return { currencyCode: 'EUR', certain: true };
  if (header.includes('£')) return { currencyCode: 'GBP', certain: false };
  if (header.includes('¥')) return { currencyCode: 'JPY', certain: false };
  if (header.includes('$')) return { currencyCode: currenciesForSymbol('$')?.[0] ?? 'USD', certain: false };
  return undefined;
}

/** "Amount (cents)", "Gift in minor units": the column already holds minor units. */
function saysMinorUnits(header: string): boolean {
  return /\b(cents?|pence|minor units?|in minor)\b/i.test(header);
}

/**
 * Proposes a target for each column, with a confidence to show for confirmation. Each field target
 * goes to at most one column (the best-scoring); ties go to the leftmost column. A full-name column
 * wins over first/last-name columns. Columns left over get a valid metadata key ready.
 */
export function suggestMapping(headers: readonly string[], options: SuggestOptions = {}): MappingSuggestion {
  const candidates = headers.map((header, index) => {
    const list = header.trim() === '' ? [] : scoreHeader(header);
    if (options.samples && (list[0]?.confidence ?? 0) < AUTO_MATCH_THRESHOLD) {
      const byValue = scoreValues(options.samples.map((row) => row[index]));
      if (byValue && !list.some((c) => c.target === byValue.target && c.confidence >= byValue.confidence)) {
        list.unshift(byValue);
        list.sort((a, b) => b.confidence - a.confidence);
      }
    }
    return list;
  });

  const ranked = candidates
    .flatMap((list, index) => list.map((c) => ({ ...c, index })))
    .filter((c) => c.confidence >= AUTO_MATCH_THRESHOLD)
    .sort((a, b) => b.confidence - a.confidence || a.index - b.index);
  const chosen = new Map<number, TargetCandidate>();
  const taken = new Set<FieldTarget>();
  for (const c of ranked) {
    if (chosen.has(c.index) || taken.has(c.target)) continue;
    chosen.set(c.index, c);
    taken.add(c.target);
  }
  // One name source: a full-name column makes first/last-name columns redundant.
  if (taken.has('donor.fullName')) {
    for (const [index, c] of chosen)
      if (c.target === 'donor.firstName' || c.target === 'donor.lastName') chosen.delete(index);
  }

  const keys = new Set<string>();
  const columns: ColumnSuggestion[] = headers.map((header, index) => {
    const pick = chosen.get(index);
    const metadataKey = uniqueMetadataKey(toMetadataKey(header), keys);
    if (!pick) keys.add(metadataKey);
    return {
      index,
      header,
      ...(pick ? { target: pick.target } : {}),
      confidence: pick?.confidence ?? 0,
      reason: pick?.reason ?? 'no matching header',
      alternatives: (candidates[index] ?? []).filter((c) => c.target !== pick?.target).slice(0, 3),
      metadataKey,
    };
  });

  const template: MappingTemplate = { columns: {}, amountUnit: 'major' };
  const seenHeaders = new Set<string>();
  for (const column of columns) {
    // A template addresses columns by header text: blank or repeated headers cannot be saved.
    if (column.header.trim() === '' || seenHeaders.has(column.header)) continue;
    seenHeaders.add(column.header);
    const target: MappingTarget | undefined =
      column.target ?? (options.unmappedAsMetadata ? `metadata.${column.metadataKey}` : undefined);
    if (target) template.columns[column.header] = target;
  }

  const amountColumn = columns.find((c) => c.target === 'amount');
  const hint = amountColumn && currencyHintOf(amountColumn.header);
  const currencyHint: CurrencyHint | undefined =
    hint && amountColumn ? { ...hint, header: amountColumn.header } : undefined;
  if (currencyHint && !taken.has('currencyCode'))
    template.fixed = { currencyCode: currencyHint.currencyCode };
  if (amountColumn && saysMinorUnits(amountColumn.header)) template.amountUnit = 'minor';

  return { columns, ...(currencyHint ? { currencyHint } : {}), template };
}
