import { describe, expect, it } from 'vitest';
import { applyMapping } from './applyMapping';
import { compileMapping } from './compileMapping';
import type { MappingTemplate } from './template';

const headers = [
  'Charity ID',
  'Gift amount',
  'Currency',
  'First name',
  'Last name',
  'Employee email',
  'Receipt',
  'Country',
  'Employee ID',
];
const template: MappingTemplate = {
  columns: {
    'Charity ID': 'recipientId',
    'Gift amount': 'amount',
    Currency: 'currencyCode',
    'First name': 'donor.firstName',
    'Last name': 'donor.lastName',
    'Employee email': 'donor.email',
    Receipt: 'donor.receipted',
    Country: 'donor.address.country',
    'Employee ID': 'metadata.employeeId',
  },
  amountUnit: 'major',
};
const row = (over: Record<number, unknown> = {}): unknown[] => {
  const cells: unknown[] = [
    '840-123456789',
    '1,234.56',
    'USD',
    'Ada',
    'Lovelace',
    'ada@example.com',
    'yes',
    'United Kingdom',
    1001,
  ];
  for (const [i, v] of Object.entries(over)) cells[Number(i)] = v;
  return cells;
};

describe('applyMapping', () => {
  it('builds the donation the service expects', () => {
    const result = applyMapping(headers, row(), template, { reference: { key: 'ddRef', value: 'ws1:4' } });
    expect(result).toEqual({
      ok: true,
      issues: [],
      donation: {
        destination: { recipientId: '840-123456789' },
        funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'USD', amount: 123456 },
        donor: {
          fullName: 'Ada Lovelace',
          email: 'ada@example.com',
          receipted: true,
          address: { country: 'GB' },
        },
        metadata: { employeeId: '1001', ddRef: 'ws1:4' },
      },
    });
  });

  it('leaves the reference out when switched off, and empty cells out entirely', () => {
    const result = applyMapping(
      headers,
      row({ 3: '', 4: null, 5: undefined, 6: '', 7: '', 8: '' }),
      template,
    );
    expect(result.ok && result.donation).toEqual({
      destination: { recipientId: '840-123456789' },
      funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'USD', amount: 123456 },
    });
  });

  it('places each issue on its source cell', () => {
    const result = applyMapping(
      headers,
      row({ 0: '', 1: '10.005', 5: 'ada@', 6: 'maybe', 7: 'Atlantis', 8: 'ok 🎉' }),
      template,
    );
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => [i.field, i.code, i.column, i.columnIndex])).toEqual([
      ['donor.receipted', 'RECEIPTED_INVALID', 'Receipt', 6],
      ['funds.amount', 'AMOUNT_TOO_PRECISE', 'Gift amount', 1],
      ['destination.recipientId', 'RECIPIENT_REQUIRED', 'Charity ID', 0],
      ['donor.email', 'EMAIL_INVALID', 'Employee email', 5],
      ['donor.address.country', 'COUNTRY_INVALID', 'Country', 7],
      ['metadata.employeeId', 'METADATA_VALUE_EMOJI', 'Employee ID', 8],
    ]);
    expect(result.issues[1]?.message).toBe(
      'Amount "10.005" has more decimals than USD allows (2). Round it in your sheet or enter 10.01.',
    );
  });

  it('puts a name problem on the first-name column', () => {
    const result = applyMapping(headers, row({ 3: 42 }), { ...template, columns: { ...template.columns } });
    expect(result.ok).toBe(true);
    expect(result.ok && result.donation.donor?.fullName).toBe('42 Lovelace');
  });

  it('warns about trimmed spaces, on the cell', () => {
    const result = applyMapping(headers, row({ 0: ' 840-123456789\u00a0', 1: ' 25 ' }), template);
    expect(result.ok).toBe(true);
    expect(result.issues.map((i) => [i.code, i.columnIndex, i.severity])).toEqual([
      ['WHITESPACE_TRIMMED', 0, 'warning'],
      ['WHITESPACE_TRIMMED', 1, 'warning'],
    ]);
  });

  it('reports a wrong currency once, on the currency cell, not again on the amount', () => {
    const result = applyMapping(headers, row({ 2: 'Dollars' }), template);
    expect(result.issues.map((i) => [i.field, i.code, i.column])).toEqual([
      ['funds.currencyCode', 'CURRENCY_UNKNOWN', 'Currency'],
    ]);
  });

  it('reads lower-case and € currency cells', () => {
    const a = applyMapping(headers, row({ 2: 'eur', 1: '10' }), template);
    const b = applyMapping(headers, row({ 2: '€', 1: '10' }), template);
    expect(a.donation.funds.currencyCode).toBe('EUR');
    expect(b.donation.funds.currencyCode).toBe('EUR');
  });

  it('uses the fixed currency, the amount header, or the amount cell when there is no currency column', () => {
    const h = ['Charity ID', 'Amount (JPY)'];
    const fromHeader = applyMapping(h, ['840-1', '1,000'], {
      columns: { 'Charity ID': 'recipientId', 'Amount (JPY)': 'amount' },
      amountUnit: 'major',
    });
    expect(fromHeader.donation.funds).toMatchObject({ currencyCode: 'JPY', amount: 1000 });
    const fixed = applyMapping(h, ['840-1', '10'], {
      columns: { 'Charity ID': 'recipientId', 'Amount (JPY)': 'amount' },
      fixed: { currencyCode: 'KWD' },
      amountUnit: 'major',
    });
    expect(fixed.donation.funds).toMatchObject({ currencyCode: 'KWD', amount: 10000 });
    const fromCell = applyMapping(
      ['R', 'A'],
      ['840-1', 'EUR 12,50'],
      { columns: { R: 'recipientId', A: 'amount' }, amountUnit: 'major' },
      { numberStyle: 'comma-decimal' },
    );
    expect(fromCell.donation.funds).toMatchObject({ currencyCode: 'EUR', amount: 1250 });
  });

  it('fills the fixed foundation id, and a column value wins over it', () => {
    const t: MappingTemplate = {
      columns: { R: 'recipientId', A: 'amount', F: 'foundationId' },
      fixed: { currencyCode: 'USD', foundationId: 'FND-1' },
      amountUnit: 'major',
    };
    expect(applyMapping(['R', 'A', 'F'], ['840-1', '5', ''], t).donation.destination.foundationId).toBe(
      'FND-1',
    );
    expect(applyMapping(['R', 'A', 'F'], ['840-1', '5', 'FND-2'], t).donation.destination.foundationId).toBe(
      'FND-2',
    );
  });

  it('reads amounts in minor units when the template says so', () => {
    const t: MappingTemplate = {
      columns: { R: 'recipientId', A: 'amount' },
      fixed: { currencyCode: 'USD' },
      amountUnit: 'minor',
    };
    expect(applyMapping(['R', 'A'], ['840-1', 2550], t).donation.funds.amount).toBe(2550);
  });

  it('takes spreadsheet numbers and notes float noise', () => {
    const result = applyMapping(headers, row({ 1: 0.1 + 0.2 }), template);
    expect(result.donation.funds.amount).toBe(30);
    expect(result.issues.map((i) => i.code)).toEqual(['AMOUNT_FLOAT_ARTEFACT']);
  });

  it('refuses a reference key a column already uses', () => {
    const result = applyMapping(headers, row(), template, { reference: { key: 'employeeId', value: 'w:2' } });
    expect(result.issues.map((i) => [i.code, i.column])).toEqual([['REFERENCE_KEY_TAKEN', 'Employee ID']]);
  });

  it('reports a missing amount column through the rules, without a cell', () => {
    const result = applyMapping(['R'], ['840-1'], {
      columns: { R: 'recipientId' },
      fixed: { currencyCode: 'USD' },
      amountUnit: 'major',
    });
    expect(result.issues.map((i) => [i.field, i.code, i.column])).toEqual([
      ['funds.amount', 'AMOUNT_REQUIRED', undefined],
    ]);
  });

  it('maps 100k rows with a compiled mapping (its speed is in npm run bench)', () => {
    const compiled = compileMapping(headers, template);
    const rows = Array.from({ length: 100_000 }, (_, i) => row({ 8: i, 1: `${(i % 500) + 1}.25` }));
    let valid = 0;
    for (const r of rows) if (applyMapping(headers, r, compiled).ok) valid++;
    expect(valid).toBe(100_000);
  });
});

describe('compileMapping', () => {
  const problems = (h: string[], t: Partial<MappingTemplate>) =>
    compileMapping(h, { columns: {}, amountUnit: 'major', ...t }, { referenceKey: 'ddRef' }).problems.map(
      (p) => [p.severity, p.code],
    );

  it('accepts a complete mapping', () => {
    expect(problems(headers, template)).toEqual([]);
  });

  it.each([
    [
      'no recipient',
      ['A'],
      { columns: { A: 'amount' }, fixed: { currencyCode: 'USD' } },
      [['error', 'MAPPING_RECIPIENT_MISSING']],
    ],
    [
      'no amount',
      ['R'],
      { columns: { R: 'recipientId' }, fixed: { currencyCode: 'USD' } },
      [['error', 'MAPPING_AMOUNT_MISSING']],
    ],
    [
      'no currency',
      ['R', 'A'],
      { columns: { R: 'recipientId', A: 'amount' } },
      [['error', 'MAPPING_CURRENCY_MISSING']],
    ],
    [
      'currency from the amount header',
      ['R', 'Amount (EUR)'],
      { columns: { R: 'recipientId', 'Amount (EUR)': 'amount' } },
      [],
    ],
    [
      '"$" alone is not a currency',
      ['R', 'Amount ($)'],
      { columns: { R: 'recipientId', 'Amount ($)': 'amount' } },
      [['error', 'MAPPING_CURRENCY_MISSING']],
    ],
    [
      'column not in the file',
      ['R'],
      { columns: { R: 'recipientId', Gift: 'amount' }, fixed: { currencyCode: 'USD' } },
      [
        ['error', 'MAPPING_COLUMN_MISSING'],
        ['error', 'MAPPING_AMOUNT_MISSING'],
      ],
    ],
    [
      'optional column not in the file',
      ['R', 'A'],
      { columns: { R: 'recipientId', A: 'amount', Notes: 'metadata.notes' }, fixed: { currencyCode: 'USD' } },
      [['warning', 'MAPPING_COLUMN_MISSING']],
    ],
    [
      'repeated header',
      ['R', 'A', 'A'],
      { columns: { R: 'recipientId', A: 'amount' }, fixed: { currencyCode: 'USD' } },
      [['warning', 'MAPPING_DUPLICATE_HEADER']],
    ],
    [
      'two name sources',
      ['R', 'A', 'N', 'F'],
      {
        columns: { R: 'recipientId', A: 'amount', N: 'donor.fullName', F: 'donor.firstName' },
        fixed: { currencyCode: 'USD' },
      },
      [['warning', 'MAPPING_NAME_TWICE']],
    ],
    [
      'same target via case-different headers',
      ['R', 'A'],
      { columns: { R: 'recipientId', A: 'amount', a: 'amount' }, fixed: { currencyCode: 'USD' } },
      [['error', 'MAPPING_TARGET_TWICE']],
    ],
  ] as const)('%s', (_name, h, t, expected) => {
    expect(problems([...h], t as Partial<MappingTemplate>)).toEqual(expected);
  });
});
