import { describe, expect, it } from 'vitest';
import { removalProblem } from './removal';

describe('removal problem', () => {
  it('is nothing when the service removed the location', () => {
    const applied = { status: 'applied' as const, op: 'remove' as const, location: { id: 'loc-1' } };
    expect(removalProblem({ ok: true, value: { outcomes: [applied] } })).toBeNull();
  });

  it("gives the app's error, the service's reasons, or says the service did not remove it", () => {
    expect(
      removalProblem({ ok: false, error: { code: 'NETWORK', message: 'The service did not answer.' } }),
    ).toBe('The service did not answer.');
    const failed = {
      status: 'failed' as const,
      op: 'remove' as const,
      errors: [
        { field: '', message: 'Unknown reference id.' },
        { field: 'referenceId', message: 'Try again.' },
      ],
    };
    expect(removalProblem({ ok: true, value: { outcomes: [failed] } })).toBe(
      'Unknown reference id. Try again.',
    );
    expect(removalProblem({ ok: true, value: { outcomes: [{ status: 'notApplied', op: 'remove' }] } })).toBe(
      'The service did not remove it.',
    );
    expect(removalProblem({ ok: true, value: { outcomes: [] } })).toBe('The service did not remove it.');
  });
});
