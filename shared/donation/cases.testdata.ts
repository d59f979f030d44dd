import { validDonation } from './testFixtures';

/** [name, attributes, error fields and codes expected ([] = valid)]; shared by the rule and agreement tests. */
export type RuleCase = [name: string, attributes: unknown, errors: Array<[field: string, code: string]>];

const d = validDonation;
const withFunds = (funds: Record<string, unknown>): unknown => ({
  ...d(),
  funds: { ...d().funds, ...funds },
});
const withDestination = (destination: Record<string, unknown>): unknown => ({ ...d(), destination });
const withDonor = (donor: unknown): unknown => ({ ...d(), donor });
const withAddress = (address: Record<string, unknown>): unknown => ({
  ...d(),
  donor: { fullName: 'A B', address },
});
const withMetadata = (metadata: unknown): unknown => ({ ...d(), metadata });
const manyPairs = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

export const RULE_CASES: RuleCase[] = [
  ['a complete valid donation', d(), []],
  [
    'minimal: destination and funds only',
    {
      destination: { recipientId: '840-123456789' },
      funds: { paymentType: 'DONATION_REPORT', currencyCode: 'JPY', amount: 1 },
    },
    [],
  ],
  ['not an object', 'donation', [['', 'DONATION_NOT_OBJECT']]],
  ['an array', [], [['', 'DONATION_NOT_OBJECT']]],
  ['unknown top-level attribute', { ...d(), state: {} }, [['state', 'FIELD_UNKNOWN']]],
  // recipientId
  ['recipient missing', withDestination({}), [['destination.recipientId', 'RECIPIENT_REQUIRED']]],
  ['destination missing', { funds: d().funds }, [['destination.recipientId', 'RECIPIENT_REQUIRED']]],
  ['destination not an object', { ...d(), destination: '840-1' }, [['destination', 'FIELD_NOT_OBJECT']]],
  [
    'recipient empty',
    withDestination({ recipientId: '' }),
    [['destination.recipientId', 'RECIPIENT_REQUIRED']],
  ],
  [
    'recipient blank',
    withDestination({ recipientId: '   ' }),
    [['destination.recipientId', 'RECIPIENT_REQUIRED']],
  ],
  [
    'recipient a number',
    withDestination({ recipientId: 840123 }),
    [['destination.recipientId', 'FIELD_NOT_TEXT']],
  ],
  ['cause', withDestination({ recipientId: '840-123456789' }), []],
  ['cause with letters (Canadian BN)', withDestination({ recipientId: '124-108080285RR0001' }), []],
  ['cause with several groups', withDestination({ recipientId: '826-1234567-1' }), []],
  ['cause/project', withDestination({ recipientId: '840-123456789/4X7K2M9QPL' }), []],
  ['portfolio', withDestination({ recipientId: 'climate-portfolio' }), []],
  ['portfolio with underscore', withDestination({ recipientId: 'PF_2024_01' }), []],
  [
    'recipient with space',
    withDestination({ recipientId: '840 123456789' }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  [
    'recipient padded',
    withDestination({ recipientId: ' 840-123456789' }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  [
    'recipient two slashes',
    withDestination({ recipientId: '840-1/AB/CD' }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  [
    'recipient empty project',
    withDestination({ recipientId: '840-123456789/' }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  [
    'project on a portfolio',
    withDestination({ recipientId: 'climate/4X7K2M9QPL' }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  [
    'project with dash',
    withDestination({ recipientId: '840-1/4X7K-2M' }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  [
    'recipient with #',
    withDestination({ recipientId: '#840-1' }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  [
    'recipient too long',
    withDestination({ recipientId: `840-${'1'.repeat(130)}` }),
    [['destination.recipientId', 'RECIPIENT_INVALID']],
  ],
  ['EIN look-alike is only a warning', withDestination({ recipientId: '12-3456789' }), []],
  ['bare number is only a warning', withDestination({ recipientId: '123456789' }), []],
  // foundationId
  ['foundation id', withDestination({ recipientId: '840-1', foundationId: 'FND-001' }), []],
  [
    'foundation id with space',
    withDestination({ recipientId: '840-1', foundationId: 'FND 001' }),
    [['destination.foundationId', 'FOUNDATION_INVALID']],
  ],
  [
    'foundation id blank',
    withDestination({ recipientId: '840-1', foundationId: '' }),
    [['destination.foundationId', 'FIELD_EMPTY']],
  ],
  [
    'foundation id null',
    withDestination({ recipientId: '840-1', foundationId: null }),
    [['destination.foundationId', 'FIELD_NOT_TEXT']],
  ],
  [
    'unknown destination key',
    withDestination({ recipientId: '840-1', project: 'x' }),
    [['destination.project', 'FIELD_UNKNOWN']],
  ],
  // amount
  ['amount missing', withFunds({ amount: undefined }), [['funds.amount', 'AMOUNT_REQUIRED']]],
  ['amount zero', withFunds({ amount: 0 }), [['funds.amount', 'AMOUNT_ZERO']]],
  ['amount negative', withFunds({ amount: -5 }), [['funds.amount', 'AMOUNT_NEGATIVE']]],
  ['amount fractional', withFunds({ amount: 25.5 }), [['funds.amount', 'AMOUNT_NOT_INTEGER']]],
  ['amount text', withFunds({ amount: '2500' }), [['funds.amount', 'AMOUNT_NOT_INTEGER']]],
  ['amount NaN', withFunds({ amount: Number.NaN }), [['funds.amount', 'AMOUNT_NOT_INTEGER']]],
  ['amount beyond safe integers', withFunds({ amount: 2 ** 60 }), [['funds.amount', 'AMOUNT_TOO_LARGE']]],
  ['amount at the safe limit', withFunds({ amount: Number.MAX_SAFE_INTEGER }), []],
  // currency
  ['currency missing', withFunds({ currencyCode: undefined }), [['funds.currencyCode', 'CURRENCY_REQUIRED']]],
  ['currency empty', withFunds({ currencyCode: '' }), [['funds.currencyCode', 'CURRENCY_REQUIRED']]],
  ['currency lower case', withFunds({ currencyCode: 'usd' }), [['funds.currencyCode', 'CURRENCY_UNKNOWN']]],
  ['currency unknown', withFunds({ currencyCode: 'ABC' }), [['funds.currencyCode', 'CURRENCY_UNKNOWN']]],
  ['currency a metal', withFunds({ currencyCode: 'XAU' }), [['funds.currencyCode', 'CURRENCY_UNKNOWN']]],
  ['currency a number', withFunds({ currencyCode: 840 }), [['funds.currencyCode', 'FIELD_NOT_TEXT']]],
  ['currency KWD', withFunds({ currencyCode: 'KWD' }), []],
  // paymentType / source
  [
    'payment type missing',
    withFunds({ paymentType: undefined }),
    [['funds.paymentType', 'PAYMENT_TYPE_REQUIRED']],
  ],
  ['payment type wrong', withFunds({ paymentType: 'CARD' }), [['funds.paymentType', 'PAYMENT_TYPE_INVALID']]],
  ['source absent is fine', withFunds({ source: undefined }), []],
  ['source wrong', withFunds({ source: 'USER' }), [['funds.source', 'SOURCE_INVALID']]],
  [
    'funds missing',
    { destination: d().destination },
    [
      ['funds.amount', 'AMOUNT_REQUIRED'],
      ['funds.currencyCode', 'CURRENCY_REQUIRED'],
      ['funds.paymentType', 'PAYMENT_TYPE_REQUIRED'],
    ],
  ],
  ['funds not an object', { ...d(), funds: 25 }, [['funds', 'FIELD_NOT_OBJECT']]],
  ['response-only receiptId', withFunds({ receiptId: 'r1' }), [['funds.receiptId', 'FIELD_UNKNOWN']]],
  // donor
  ['no donor (anonymous)', { ...d(), donor: undefined }, []],
  ['empty donor', withDonor({}), []],
  ['donor not an object', withDonor('Ada'), [['donor', 'FIELD_NOT_OBJECT']]],
  ['receipted false', withDonor({ fullName: 'A', receipted: false }), []],
  [
    'receipted as text',
    withDonor({ fullName: 'A', receipted: 'yes' }),
    [['donor.receipted', 'RECEIPTED_INVALID']],
  ],
  ['full name blank', withDonor({ fullName: ' ' }), [['donor.fullName', 'FIELD_EMPTY']]],
  ['email valid with plus', withDonor({ email: 'ada.l+gifts@mail.example.co.uk' }), []],
  ['email without @', withDonor({ email: 'ada.example.com' }), [['donor.email', 'EMAIL_INVALID']]],
  ['email without tld', withDonor({ email: 'ada@example' }), [['donor.email', 'EMAIL_INVALID']]],
  ['email with space', withDonor({ email: 'ada @example.com' }), [['donor.email', 'EMAIL_INVALID']]],
  ['email two @', withDonor({ email: 'ada@@example.com' }), [['donor.email', 'EMAIL_INVALID']]],
  ['email double dot', withDonor({ email: 'ada..l@example.com' }), [['donor.email', 'EMAIL_INVALID']]],
  ['email trailing dot', withDonor({ email: 'ada@example.com.' }), [['donor.email', 'EMAIL_INVALID']]],
  ['email blank', withDonor({ email: '' }), [['donor.email', 'FIELD_EMPTY']]],
  ['unknown donor key', withDonor({ phone: '1' }), [['donor.phone', 'FIELD_UNKNOWN']]],
  // address
  [
    'full address',
    withAddress({
      line1: '1 Main St',
      line2: 'Suite 2',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    }),
    [],
  ],
  ['country lower case', withAddress({ country: 'us' }), [['donor.address.country', 'COUNTRY_INVALID']]],
  ['country name', withAddress({ country: 'USA' }), [['donor.address.country', 'COUNTRY_INVALID']]],
  [
    'country not assigned (XK)',
    withAddress({ country: 'XK' }),
    [['donor.address.country', 'COUNTRY_INVALID']],
  ],
  ['city blank', withAddress({ city: '' }), [['donor.address.city', 'FIELD_EMPTY']]],
  ['zip as number', withAddress({ zip: 62701 }), [['donor.address.zip', 'FIELD_NOT_TEXT']]],
  ['unknown address key', withAddress({ street: 'x' }), [['donor.address.street', 'FIELD_UNKNOWN']]],
  ['address not an object', withDonor({ address: '1 Main St' }), [['donor.address', 'FIELD_NOT_OBJECT']]],
  // metadata
  ['empty metadata', withMetadata({}), []],
  ['100 pairs', withMetadata(manyPairs(100)), []],
  ['101 pairs', withMetadata(manyPairs(101)), [['metadata', 'METADATA_TOO_MANY']]],
  ['metadata not an object', withMetadata(['a']), [['metadata', 'FIELD_NOT_OBJECT']]],
  ['key with space, underscore, dash', withMetadata({ 'Cost centre_1-a': 'x' }), []],
  ['key of 64', withMetadata({ ['k'.repeat(64)]: 'x' }), []],
  [
    'key of 65',
    withMetadata({ ['k'.repeat(65)]: 'x' }),
    [[`metadata.${'k'.repeat(65)}`, 'METADATA_KEY_TOO_LONG']],
  ],
  ['key empty', withMetadata({ '': 'x' }), [['metadata.', 'METADATA_KEY_EMPTY']]],
  ['key with #', withMetadata({ 'Employee ID#': 'x' }), [['metadata.Employee ID#', 'METADATA_KEY_INVALID']]],
  ['key with accent', withMetadata({ Société: 'x' }), [['metadata.Société', 'METADATA_KEY_INVALID']]],
  ['key with dot', withMetadata({ 'a.b': 'x' }), [['metadata.a.b', 'METADATA_KEY_INVALID']]],
  ['value of 190', withMetadata({ note: 'v'.repeat(190) }), []],
  ['value of 191', withMetadata({ note: 'v'.repeat(191) }), [['metadata.note', 'METADATA_VALUE_TOO_LONG']]],
  ['value empty', withMetadata({ note: '' }), [['metadata.note', 'METADATA_VALUE_EMPTY']]],
  ['value with BMP accents, CJK and ❤', withMetadata({ note: 'Café 東京 ❤ €' }), []],
  ['value with emoji', withMetadata({ note: 'thanks 🎉' }), [['metadata.note', 'METADATA_VALUE_EMOJI']]],
  ['value with flag', withMetadata({ note: '🇺🇸' }), [['metadata.note', 'METADATA_VALUE_EMOJI']]],
  ['value with math letter', withMetadata({ note: '𝔸' }), [['metadata.note', 'METADATA_VALUE_OUTSIDE_BMP']]],
  [
    'value with lone surrogate',
    withMetadata({ note: 'a\ud800b' }),
    [['metadata.note', 'METADATA_VALUE_BROKEN_CHARACTER']],
  ],
  ['value a number', withMetadata({ note: 5 }), [['metadata.note', 'METADATA_VALUE_NOT_TEXT']]],
];
