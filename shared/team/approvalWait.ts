/*
 * Team mode: whether the team's rule holds an upload for an approver, as the team database decides
 * it (desk.needs_approval): "always" holds every upload, "never" none, "above" one whose total in a
 * currency is above that currency's amount, or in a currency the rule names no amount for.
 */

export interface ApprovalRule {
  approval: 'always' | 'above' | 'never';
  /** Minor units per currency code. */
  thresholds: Record<string, number>;
}

export function waitsForApprover(
  rule: ApprovalRule,
  totals: ReadonlyArray<{ currencyCode: string; amount: number }>,
): boolean {
  if (rule.approval === 'always') return true;
  if (rule.approval === 'never') return false;
  return totals.some((t) => {
    const limit = rule.thresholds[t.currencyCode];
    return limit === undefined || t.amount > limit;
  });
}
