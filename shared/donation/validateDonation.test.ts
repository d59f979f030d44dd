import { describe, expect, it } from 'vitest';
import { RULE_CASES } from './cases.testdata';
import { checkRecipientId, recipientShape } from './recipientId';
import { parseYesNo } from './receipted';
import { toCountryCode } from './countries';
import { COUNTRY_CODES } from './countries';
import { validDonation } from './testFixtures';
import { hasErrors, validateDonation } from './validateDonation';

describe('validateDonation: every rule', () => {
  it.each(RULE_CASES)('%s', (_name, attributes, expected) => {
    const errors = validateDonation(attributes)
      .filter((i) => i.severity === 'error')
      .map((i) => [i.field, i.code]);
    expect(errors).toEqual(expected);
  });

  it('every message says what is wrong and ends as a sentence', () => {
    for (const [, attributes] of RULE_CASES) {
      for (const issue of validateDonation(attributes)) expect(issue.message).toMatch(/^[A-Z"].*[.]$/s);
    }
  });

  it('names the emoji in its message', () => {
    const [issue] = validateDonation({ ...validDonation(), metadata: { note: 'thanks 🎉' } });
    expect(issue?.message).toBe(
      'Metadata "note" contains an emoji (🎉), which the giving service does not accept. Remove it.',
    );
  });

  it('warns, without blocking, about an EIN or a bare number as recipient', () => {
    const ein = validateDonation({ ...validDonation(), destination: { recipientId: '12-3456789' } });
    expect(ein).toEqual([expect.objectContaining({ severity: 'warning', code: 'RECIPIENT_LOOKS_LIKE_EIN' })]);
    expect(ein[0]?.message).toContain('840-123456789');
    expect(hasErrors(ein)).toBe(false);
    const bare = validateDonation({ ...validDonation(), destination: { recipientId: '123' } });
    expect(bare[0]?.code).toBe('RECIPIENT_BARE_NUMBER');
  });

  it('suggests the capitalised code for lower-case currency and country', () => {
    const issues = validateDonation({
      ...validDonation(),
      funds: { ...validDonation().funds, currencyCode: 'usd' },
      donor: { address: { country: 'de' } },
    });
    expect(issues.map((i) => i.message)).toEqual([
      'Currency "usd" must be written as USD.',
      'Country "de" must be written as DE.',
    ]);
  });

  it('finds nothing wrong in 100k valid rows (its speed is measured by npm run bench)', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) =>
      validDonation({
        metadata: { 'Employee ID': `E-${i}`, Department: 'Finance', ddRef: `ab12cd:${i + 2}` },
      }),
    );
    let errors = 0;
    for (const row of rows) errors += validateDonation(row).length;
    expect(errors).toBe(0);
  });
});

describe('recipient id shapes', () => {
  it.each([
    ['840-123456789', 'cause'],
    ['124-108080285RR0001', 'cause'],
    ['840-123456789/4X7K2M9QPL', 'cause/project'],
    ['climate-portfolio', 'portfolio'],
    ['PF.2024:1', 'portfolio'],
    ['840-', undefined],
    ['-840', undefined],
    ['climate/4X7K', undefined],
    ['a b', undefined],
    ['', undefined],
  ])('%j → %s', (id, shape) => {
    expect(recipientShape(id)).toBe(shape);
  });

  it('explains a project after a non-cause', () => {
    expect(checkRecipientId('climate/4X7K')?.message).toContain('"climate" is not a cause id');
  });
});

describe('receipted yes/no', () => {
  it.each([
    ['yes', true],
    ['Y', true],
    ['TRUE', true],
    ['1', true],
    [1, true],
    [true, true],
    ['no', false],
    ['n', false],
    ['False', false],
    ['0', false],
    [0, false],
    [false, false],
    [' yes ', true],
    ['maybe', undefined],
    ['', undefined],
    [2, undefined],
    [null, undefined],
  ])('%j → %s', (input, expected) => {
    expect(parseYesNo(input)).toBe(expected);
  });
});

describe('countries', () => {
  it('holds the 249 assigned ISO 3166-1 codes', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
  });

  it.each([
    ['us', 'US'],
    ['United States', 'US'],
    ['USA', 'US'],
    ['UK', 'GB'],
    ['Deutschland', 'DE'],
    ['Atlantis', undefined],
  ])('%j → %s', (text, code) => {
    expect(toCountryCode(text)).toBe(code);
  });
});
