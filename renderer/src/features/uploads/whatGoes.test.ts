import { describe, expect, it } from 'vitest';
import { whatGoes } from './whatGoes';

const preview = {
  rows: 5,
  valid: 5,
  invalid: 0,
  totals: [{ currencyCode: 'USD', count: 5, amount: 10_000 }],
  duplicates: [],
  parts: 1,
  mappingProblems: [],
  replacements: 0,
  onlyNew: { valid: 3, totals: [{ currencyCode: 'USD', count: 3, amount: 6000 }], parts: 1 },
};
const above80 = { approval: 'above' as const, thresholds: { USD: 8000 } };
const choice = { onlyNew: false, resend: false, oneByOne: false };

describe('what the upload dialog sends', () => {
  it('is every ready row until only the new rows are chosen', () => {
    expect(whatGoes(preview, choice, null)).toEqual({
      valid: 5,
      parts: 1,
      totals: preview.totals,
      leftOut: 0,
      forApproval: false,
    });
    expect(whatGoes(preview, { ...choice, onlyNew: true }, null)).toEqual({
      valid: 3,
      parts: 1,
      totals: preview.onlyNew.totals,
      leftOut: 2,
      forApproval: false,
    });
  });

  it('weighs the team’s rule on what is sent: $60.00 of new rows is under an $80.00 limit', () => {
    expect(whatGoes(preview, choice, above80).forApproval).toBe(true);
    expect(whatGoes(preview, { ...choice, onlyNew: true }, above80).forApproval).toBe(false);
    expect(whatGoes(preview, { ...choice, oneByOne: true }, above80).forApproval).toBe(false);
  });

  it('sends the whole preview when nothing was sent before, or for a resend', () => {
    expect(whatGoes({ ...preview, onlyNew: null }, { ...choice, onlyNew: true }, null).valid).toBe(5);
    expect(whatGoes(preview, { onlyNew: true, resend: true, oneByOne: false }, null).leftOut).toBe(0);
  });
});
