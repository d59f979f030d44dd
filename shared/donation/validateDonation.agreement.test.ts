import { describe, expect, it } from 'vitest';
import { RULE_CASES } from './cases.testdata';
import { donationAttributesSchema, zodPathToField } from './donationShapes';
import { validateDonation } from './validateDonation';

// Fields are compared up to nesting: zod reports a missing `funds` at "funds", the fast validator at
// each required field inside it. Both must see an error in the same place, and nothing else.
const related = (a: string, b: string): boolean =>
  a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`) || a === '' || b === '';

describe('fast validator and zod schema agree', () => {
  it.each(RULE_CASES)('%s', (_name, attributes) => {
    const fast = validateDonation(attributes)
      .filter((i) => i.severity === 'error')
      .map((i) => i.field);
    const parsed = donationAttributesSchema.safeParse(attributes);
    const zodFields = parsed.success
      ? []
      : parsed.error.issues.flatMap((issue) =>
          issue.code === 'unrecognized_keys'
            ? issue.keys.map((k) => zodPathToField([...issue.path, k]))
            : [zodPathToField(issue.path)],
        );
    expect(fast.length === 0).toBe(parsed.success);
    for (const f of fast)
      expect(
        zodFields.some((z) => related(f, z)),
        `zod misses ${f}: ${zodFields.join(', ')}`,
      ).toBe(true);
    for (const z of zodFields)
      expect(
        fast.some((f) => related(f, z)),
        `validator misses ${z}: ${fast.join(', ')}`,
      ).toBe(true);
  });
});
