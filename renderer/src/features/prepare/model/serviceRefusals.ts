import type { CurrencyTotal } from '../../../../../shared/workspace';

/** The summary's figures. */
export interface SummaryCounts {
  rows: number;
  valid: number;
  invalid: number;
  warnings: number;
}

/** A row the app's checks pass but the service refused on one of its cells: what it would give. */
export interface RefusedRow {
  currencyCode: string;
  amount: number;
}

/**
 * The summary's figures once the service's errors still on their cells are counted: a row the app's
 * own checks pass but the service refused (an unknown cause, say) is not valid until it is fixed, so
 * the summary does not read "Invalid 0" while a refusal sits on a cell, and its amount is not among
 * the valid donations per currency.
 */
export function withServiceRefusals(
  counts: SummaryCounts,
  totals: CurrencyTotal[],
  refused: readonly RefusedRow[],
): { counts: SummaryCounts; totals: CurrencyTotal[] } {
  if (refused.length === 0) return { counts, totals };
  const moved = Math.min(refused.length, counts.valid);
  const byCurrency = new Map(totals.map((t) => [t.currencyCode, { ...t }]));
  for (const r of refused) {
    const total = byCurrency.get(r.currencyCode);
    if (!total) continue;
    total.count -= 1;
    total.amount -= r.amount;
  }
  return {
    counts: { ...counts, valid: counts.valid - moved, invalid: counts.invalid + moved },
    totals: [...byCurrency.values()].filter((t) => t.count > 0),
  };
}
