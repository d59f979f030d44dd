import { describe, expect, it } from 'vitest';
import { currencyHintOf, scoreHeader, suggestMapping } from './suggestMapping';
import { toMetadataKey, uniqueMetadataKey } from './toMetadataKey';

describe('scoreHeader: finance team synonyms', () => {
  it.each([
    ['Charity ID', 'recipientId'],
    ['Cause ID', 'recipientId'],
    ['Recipient', 'recipientId'],
    ['recipientId', 'recipientId'],
    ['Nonprofit ID', 'recipientId'],
    ['EIN', 'recipientId'],
    ['Recipent ID', 'recipientId'],
    ['Foundation ID', 'foundationId'],
    ['Gift amount', 'amount'],
    ['Donation ($)', 'amount'],
    ['Amount (USD)', 'amount'],
    ['Donation Amount EUR', 'amount'],
    ['Ammount', 'amount'],
    ['Amt', 'amount'],
    ['Currency', 'currencyCode'],
    ['CCY', 'currencyCode'],
    ['Employee email', 'donor.email'],
    ['E-mail', 'donor.email'],
    ['Email Address', 'donor.email'],
    ['DonorEmail', 'donor.email'],
    ['Donor name', 'donor.fullName'],
    ['Full Name', 'donor.fullName'],
    ['Employee Name', 'donor.fullName'],
    ['First name', 'donor.firstName'],
    ['FirstName', 'donor.firstName'],
    ['Surname', 'donor.lastName'],
    ['Last Name', 'donor.lastName'],
    ['Receipt wanted?', 'donor.receipted'],
    ['Address line 1', 'donor.address.line1'],
    ['Street', 'donor.address.line1'],
    ['Address 2', 'donor.address.line2'],
    ['City', 'donor.address.city'],
    ['State/Province', 'donor.address.state'],
    ['Zip/Postal code', 'donor.address.zip'],
    ['Postcode', 'donor.address.zip'],
    ['Country', 'donor.address.country'],
  ])('%j → %s', (header, target) => {
    expect(scoreHeader(header)[0]?.target).toBe(target);
  });

  it.each([
    'Charity name',
    'Recipient name',
    'Donation date',
    'Employee ID',
    'Donor ID',
    'Notes',
    'Department',
    '',
  ])('%j is not taken for a field', (header) => {
    expect((scoreHeader(header)[0]?.confidence ?? 0) < 0.6).toBe(true);
  });
});

describe('currencyHintOf', () => {
  it.each([
    ['Amount (USD)', 'USD', true],
    ['Gift [eur]', 'EUR', true],
    ['Donation EUR', 'EUR', true],
    ['Betrag €', 'EUR', true],
    ['Donation ($)', 'USD', false],
    ['Amount', undefined, undefined],
    ['Total ALL', undefined, undefined],
  ])('%j → %s', (header, code, certain) => {
    const hint = currencyHintOf(header);
    expect(hint?.currencyCode).toBe(code);
    expect(hint?.certain).toBe(certain);
  });
});

describe('suggestMapping', () => {
  it('maps a typical sheet, hints the currency and keeps the rest for metadata', () => {
    const s = suggestMapping([
      'Employee ID#',
      'Donor name',
      'Employee email',
      'Charity ID',
      'Amount (USD)',
      'Notes',
    ]);
    expect(s.columns.map((c) => c.target)).toEqual([
      undefined,
      'donor.fullName',
      'donor.email',
      'recipientId',
      'amount',
      undefined,
    ]);
    expect(s.columns[0]?.metadataKey).toBe('Employee ID');
    expect(s.currencyHint).toEqual({ currencyCode: 'USD', certain: true, header: 'Amount (USD)' });
    expect(s.template).toEqual({
      columns: {
        'Donor name': 'donor.fullName',
        'Employee email': 'donor.email',
        'Charity ID': 'recipientId',
        'Amount (USD)': 'amount',
      },
      fixed: { currencyCode: 'USD' },
      amountUnit: 'major',
    });
  });

  it('gives each target to its best column only', () => {
    const s = suggestMapping(['Donation', 'Gift amount']);
    expect(s.columns.map((c) => c.target)).toEqual([undefined, 'amount']);
    expect(s.columns[0]?.alternatives[0]?.target).toBe('amount');
  });

  it('prefers a full-name column over first/last names', () => {
    const s = suggestMapping(['First name', 'Last name', 'Full name']);
    expect(s.columns.map((c) => c.target)).toEqual([undefined, undefined, 'donor.fullName']);
    const t = suggestMapping(['First name', 'Last name']);
    expect(t.columns.map((c) => c.target)).toEqual(['donor.firstName', 'donor.lastName']);
  });

  it('recognises columns by their values when the header says nothing', () => {
    const samples = [
      ['840-123456789', 'a@x.com', 'USD'],
      ['840-987654321/ABC', 'b@y.org', 'usd'],
      ['124-108080285RR0001', 'c@z.net', 'EUR'],
    ];
    const s = suggestMapping(['Col A', 'Col B', 'Col C'], { samples });
    expect(s.columns.map((c) => c.target)).toEqual(['recipientId', 'donor.email', 'currencyCode']);
  });

  it('does not take ISO dates (2026-11-03) for cause ids: the column of ids to their right is the recipient', () => {
    const samples = [
      ['2026-11-03', '840-563097462'],
      ['2026-11-04', '840-446863710'],
      ['2026-11-05', '250-127883502'],
    ];
    const s = suggestMapping(['Date', 'ID'], { samples });
    expect(s.columns.map((c) => c.target)).toEqual([undefined, 'recipientId']);
  });

  it('maps leftovers to metadata when asked, with unique valid keys', () => {
    const s = suggestMapping(['Charity ID', 'Amount', 'Note!', 'Note?', ''], { unmappedAsMetadata: true });
    expect(s.template.columns).toEqual({
      'Charity ID': 'recipientId',
      Amount: 'amount',
      'Note!': 'metadata.Note',
      'Note?': 'metadata.Note 2',
    });
  });

  it('reads "Amount (cents)" as minor units', () => {
    expect(suggestMapping(['Charity ID', 'Amount (cents)']).template.amountUnit).toBe('minor');
  });

  it('does not set a fixed currency when a currency column exists', () => {
    expect(suggestMapping(['Charity ID', 'Amount (USD)', 'Currency']).template.fixed).toBeUndefined();
  });
});

describe('toMetadataKey', () => {
  it.each([
    ['Employee ID#', 'Employee ID'],
    ['Cost centre / Dept.', 'Cost centre Dept'],
    ['Société', 'Societe'],
    ['  spaced   out  ', 'spaced out'],
    ['employee_id', 'employee_id'],
    ['№', 'No'],
    ['###', 'Column'],
    ['x'.repeat(70), 'x'.repeat(64)],
  ])('%j → %j', (header, key) => {
    expect(toMetadataKey(header)).toBe(key);
  });

  it('makes keys unique', () => {
    expect(uniqueMetadataKey('Note', new Set(['Note', 'Note 2']))).toBe('Note 3');
    expect(uniqueMetadataKey('x'.repeat(64), new Set(['x'.repeat(64)]))).toBe(`${'x'.repeat(62)} 2`);
  });
});
