import { describe, expect, it } from 'vitest';
import { parseMappingTemplate } from './template';
import { findTemplateForHeaders } from './templateMatch';
import { makeReference, parseReference } from './reference';

const ISSUE_EXAMPLE =
  '{"sheet": "Donations", "headerRow": 3, "columns": {"Charity ID": "recipientId", "Gift amount": "amount", "Employee ID": "metadata.employeeId"}, "fixed": {"currencyCode": "USD"}, "amountUnit": "major"}';

describe('parseMappingTemplate', () => {
  it('reads the format of the issue exactly', () => {
    expect(parseMappingTemplate(ISSUE_EXAMPLE)).toEqual({
      ok: true,
      template: {
        sheet: 'Donations',
        headerRow: 3,
        columns: {
          'Charity ID': 'recipientId',
          'Gift amount': 'amount',
          'Employee ID': 'metadata.employeeId',
        },
        fixed: { currencyCode: 'USD' },
        amountUnit: 'major',
      },
    });
  });

  it('defaults amountUnit to major and needs nothing but columns', () => {
    expect(parseMappingTemplate({ columns: { A: 'amount' } })).toEqual({
      ok: true,
      template: { columns: { A: 'amount' }, amountUnit: 'major' },
    });
  });

  it.each([
    ['not JSON', '{columns:', 'not valid JSON'],
    ['unknown property', { columns: {}, colums: {} }, 'colums'],
    ['headerRow 0', { columns: {}, headerRow: 0 }, 'headerRow'],
    ['headerRow fractional', { columns: {}, headerRow: 1.5 }, 'headerRow'],
    ['unknown target', { columns: { A: 'donor.phone' } }, 'columns.A'],
    ['bad metadata key', { columns: { A: 'metadata.bad#key' } }, 'columns.A'],
    ['empty metadata key', { columns: { A: 'metadata.' } }, 'columns.A'],
    ['bad fixed currency', { columns: {}, fixed: { currencyCode: 'usd' } }, 'fixed.currencyCode'],
    ['fixed amount', { columns: {}, fixed: { amount: 5 } }, 'fixed'],
    ['bad amountUnit', { columns: {}, amountUnit: 'cents' }, 'amountUnit'],
    ['target twice', { columns: { A: 'amount', B: 'amount' } }, 'both map to amount'],
    ['metadata key twice', { columns: { A: 'metadata.x', B: 'metadata.x' } }, 'metadata key "x"'],
  ])('refuses %s', (_name, input, mention) => {
    const result = parseMappingTemplate(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(mention);
  });
});

describe('findTemplateForHeaders', () => {
  const monthly = { name: 'monthly', columns: { 'Charity ID': 'recipientId', 'Gift amount': 'amount' } };
  const full = {
    name: 'full',
    columns: { 'Charity ID': 'recipientId', 'Gift amount': 'amount', 'Employee ID': 'metadata.e' },
  };
  const other = { name: 'other', columns: { Recipient: 'recipientId', Amount: 'amount' } };

  it('applies a template to the same headers, ignoring case and spacing', () => {
    const match = findTemplateForHeaders([other, full], ['charity id', 'Gift  Amount ', 'EMPLOYEE ID']);
    expect(match?.template.name).toBe('full');
    expect(match?.exact).toBe(true);
  });

  it('prefers the exact template over one that covers part of the file', () => {
    expect(
      findTemplateForHeaders([monthly, full], ['Charity ID', 'Gift amount', 'Employee ID'])?.template.name,
    ).toBe('full');
  });

  it('uses a covering template and lists the extra headers', () => {
    const match = findTemplateForHeaders([monthly], ['Charity ID', 'Gift amount', 'Notes', '']);
    expect(match).toMatchObject({ exact: false, matched: 2, extraHeaders: ['Notes'] });
  });

  it('does not apply a template whose columns are missing', () => {
    expect(
      findTemplateForHeaders([full, other], ['Charity ID', 'Gift amount'])?.template.name,
    ).toBeUndefined();
  });
});

describe('reference pair', () => {
  it('round-trips workspace and row', () => {
    const ref = makeReference('ab12cd', 14);
    expect(ref).toEqual({ key: 'ddRef', value: 'ab12cd:14' });
    expect(parseReference(ref.value)).toEqual({ workspace: 'ab12cd', row: 14 });
    expect(makeReference('w', 3, 'Desk ref').key).toBe('Desk ref');
  });

  it('reads back the first row of a workspace, whose key is 0', () => {
    expect(parseReference(makeReference('ab12cd', 0).value)).toEqual({ workspace: 'ab12cd', row: 0 });
  });

  it.each(['', 'ab12cd', 'ab12cd:01', 'ab12cd:-1', 'a b:1', 'ab:1:2', 5])(
    '%j is not a reference',
    (value) => {
      expect(parseReference(value)).toBeUndefined();
    },
  );
});
