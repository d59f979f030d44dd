import { describe, expect, it } from 'vitest';
import { withServiceRefusals } from './serviceRefusals';

describe('withServiceRefusals', () => {
  const counts = { rows: 39, valid: 39, invalid: 0, warnings: 7 };

  it('moves the rows the service refused from valid to invalid', () => {
    expect(withServiceRefusals(counts, 1)).toEqual({ rows: 39, valid: 38, invalid: 1, warnings: 7 });
  });

  it('leaves the figures as they are when no refusal is left on a cell', () => {
    expect(withServiceRefusals(counts, 0)).toBe(counts);
  });

  it('never moves more rows than are valid', () => {
    expect(withServiceRefusals({ rows: 3, valid: 1, invalid: 2, warnings: 0 }, 5)).toEqual({
      rows: 3,
      valid: 0,
      invalid: 3,
      warnings: 0,
    });
  });
});
