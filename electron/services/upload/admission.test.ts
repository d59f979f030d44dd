import { describe, expect, it } from 'vitest';
import { validDonation } from '../../../shared/donation/testFixtures';
import { REPLACES_KEY } from '../../../shared/mapping';
import type { DeskFailure } from '../../../shared/result';
import { admit, checkReplacements, replacementsOf } from './admission';
import type { UploadContext } from './context';
import type { ReadyRow, ValidatedWorkspace } from './prepare';

function row(key: number, metadata: Record<string, string> = {}): ReadyRow {
  return { key, rowNumber: key + 1, donation: validDonation({ metadata }), fingerprint: `fp-${key}` };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as DeskFailure,
  );

describe('admission', () => {
  it('finds the rows that replace declined donations', () => {
    expect(replacementsOf([row(1), row(2, { [REPLACES_KEY]: 'd-9' })])).toEqual([
      { rowKey: 2, rowNumber: 3, donationId: 'd-9' },
    ]);
  });

  it('refuses corrections when Reconcile does not check them, and asks it when it does', async () => {
    const rows = [row(1, { [REPLACES_KEY]: 'd-9' })];
    expect((await refusal(checkReplacements({}, rows)))?.code).toBe('REPLACEMENT_NOT_ALLOWED');
    const asked: unknown[] = [];
    await checkReplacements({ checkReplacements: async (r, id) => void asked.push([r, id]) }, rows, 'u1');
    expect(asked).toEqual([[[{ rowKey: 1, rowNumber: 2, donationId: 'd-9' }], 'u1']]);
    await checkReplacements({}, [row(2)]);
  });

  it('refuses incomplete mappings and invalid rows before asking about duplicates', async () => {
    const ctx = {} as UploadContext;
    const base = { ready: [row(1)], invalid: [], mappingProblems: [] } as unknown as ValidatedWorkspace;
    const unmapped = { ...base, mappingProblems: ['Amount is not mapped.'] };
    expect((await refusal(admit(ctx, unmapped, false, undefined)))?.code).toBe('MAPPING_INCOMPLETE');
    const invalid = { ...base, invalid: [{ key: 4, rowNumber: 5 }] };
    const failure = await refusal(admit(ctx, invalid, false, undefined));
    expect(failure?.code).toBe('INVALID_ROWS');
    expect(failure?.message).toContain('row 5');
  });
});
