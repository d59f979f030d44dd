import { headerKey } from './headers';

export interface TemplateMatch<T> {
  template: T;
  /** Position in the list given. */
  index: number;
  /** How many of the template's columns the file has. */
  matched: number;
  /** The file's non-blank headers the template does not mention (kept unmapped or as metadata). */
  extraHeaders: string[];
  /** True when the template names exactly the file's headers, no more, no fewer. */
  exact: boolean;
}

/**
 * Finds the saved template to apply automatically to a file: one whose every column header is in
 * the file (compared by headerKey: case, spacing and Unicode form ignored). A template that names
 * exactly the file's headers beats one that covers only some; then more matched columns win; then
 * the earlier template in the list (the caller lists most recently used first).
 */
export function findTemplateForHeaders<T extends { columns: Record<string, unknown> }>(
  templates: readonly T[],
  headers: readonly string[],
): TemplateMatch<T> | undefined {
  const fileKeys = new Set(headers.filter((h) => h.trim() !== '').map(headerKey));
  let best: TemplateMatch<T> | undefined;
  templates.forEach((template, index) => {
    const keys = new Set(Object.keys(template.columns).map(headerKey));
    if (keys.size === 0) return;
    for (const key of keys) if (!fileKeys.has(key)) return;
    const extraHeaders = headers.filter((h) => h.trim() !== '' && !keys.has(headerKey(h)));
    const candidate: TemplateMatch<T> = {
      template,
      index,
      matched: keys.size,
      extraHeaders,
      exact: extraHeaders.length === 0,
    };
    if (
      !best ||
      (candidate.exact && !best.exact) ||
      (candidate.exact === best.exact && candidate.matched > best.matched)
    ) {
      best = candidate;
    }
  });
  return best;
}
