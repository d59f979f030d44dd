/** The summary's figures. */
export interface SummaryCounts {
  rows: number;
  valid: number;
  invalid: number;
  warnings: number;
}

/**
 * The summary's figures once the service's errors still on their cells are counted: a row the app's
 * own checks pass but the service refused (an unknown cause, say) is not valid until it is fixed, so
 * the summary does not read "Invalid 0" while a refusal sits on a cell.
 */
export function withServiceRefusals(counts: SummaryCounts, refusedValidRows: number): SummaryCounts {
  const moved = Math.min(Math.max(0, refusedValidRows), counts.valid);
  if (moved === 0) return counts;
  return { ...counts, valid: counts.valid - moved, invalid: counts.invalid + moved };
}
