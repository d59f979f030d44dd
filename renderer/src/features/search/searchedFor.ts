import type { GivingOpportunity } from '../../../../shared/contract/searchChannels';
import { parseSnippet } from './snippet';

export interface SearchedFor {
  /** The words the service matched, in the order typed (a word it did not match stays as typed). */
  terms: string[];
  /** Typed words the service replaced: "fod" → "food". */
  changed: Array<{ typed: string; searched: string }>;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Edit distance, giving up above `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}

function snippetTexts(result: GivingOpportunity): string[] {
  const s = result.snippets;
  if (!s) return [];
  const list = (v: string | string[] | null | undefined) => (v == null ? [] : Array.isArray(v) ? v : [v]);
  return [...list(s.cause), ...list(s.tag), ...list(s.title), ...list(s.body)];
}

/**
 * What an autocorrected search looked for. The service does not say which words it corrected, but
 * it marks the words it matched (`<em>`) in every result's passages: a typed word that is not among
 * them was replaced by the marked word closest to it (two edits at most).
 */
export function searchedFor(typed: string, results: readonly GivingOpportunity[]): SearchedFor {
  const marked = new Map<string, number>();
  for (const result of results)
    for (const text of snippetTexts(result))
      for (const part of parseSnippet(text))
        if (part.em) for (const word of words(part.text)) marked.set(word, (marked.get(word) ?? 0) + 1);
  const terms: string[] = [];
  const changed: SearchedFor['changed'] = [];
  for (const word of [...new Set(words(typed))]) {
    if (marked.has(word) || marked.size === 0) {
      terms.push(word);
      continue;
    }
    let best: { word: string; d: number; n: number } | null = null;
    for (const [candidate, n] of marked) {
      const d = distance(word, candidate, 2);
      if (d > 2) continue;
      if (!best || d < best.d || (d === best.d && n > best.n)) best = { word: candidate, d, n };
    }
    terms.push(best?.word ?? word);
    if (best) changed.push({ typed: word, searched: best.word });
  }
  return { terms, changed };
}
