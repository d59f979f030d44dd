import { describe, expect, it } from 'vitest';
import { normalisePointer } from './pointer';

describe('normalisePointer', () => {
  it.each([
    ['/attributes/destination/recipientId', { field: 'destination.recipientId' }],
    ['/data/3/attributes/funds/amount', { index: 3, field: 'funds.amount' }],
    ['/data/0/attributes/destination/recipientId', { index: 0, field: 'destination.recipientId' }],
    ['/data/attributes/funds/currencyCode', { field: 'funds.currencyCode' }],
    ['/destination/recipientId', { field: 'destination.recipientId' }],
    ['/attributes/donor/address/country', { field: 'donor.address.country' }],
    ['/data/12/attributes/metadata/Employee ID', { index: 12, field: 'metadata.Employee ID' }],
    ['/attributes/metadata/a~1b', { field: 'metadata.a/b' }],
    ['/attributes/metadata/t~0x', { field: 'metadata.t~x' }],
    ['/attributes/metadata', { field: 'metadata' }],
    ['/data/7', { index: 7, field: '' }],
    ['/data/7/type', { index: 7, field: 'type' }],
    ['/data', { field: '' }],
    ['/', { field: '' }],
    ['', { field: '' }],
    [null, { field: '' }],
    [undefined, { field: '' }],
    ['#/data/2/attributes/metadata/Cost%20centre', { index: 2, field: 'metadata.Cost centre' }],
    ['data[4].attributes.funds.amount', { index: 4, field: 'funds.amount' }],
    ['attributes.destination.recipientId', { field: 'destination.recipientId' }],
    ['funds.amount', { field: 'funds.amount' }],
  ])('%j → %j', (pointer, expected) => {
    expect(normalisePointer(pointer)).toEqual(expected);
  });
});
