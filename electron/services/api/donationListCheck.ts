/*
 * A page of GET /donations checked in place: the answer zod would give, without zod's copy of every
 * donation (a refresh reads 1,000,000 of them; the copy and zod's work were about a tenth of its CPU
 * time). Only an answer that zod would give back unchanged takes this way: every field as the
 * response shapes want it and every object's keys already in the order zod writes them (the shape's
 * keys first, in its order, then the others). Anything else, an error object included (zod turns
 * a numeric `status` into text), is left to zod, donation by donation, or for the whole page when
 * the page itself is not as expected, so what is stored and every message stay the same.
 */
import type { z } from 'zod';
import {
  PROCESSING_STATUSES,
  donationListResponseSchema,
  donationResourceSchema,
  type DonationListResponse,
} from '../../../shared/bulk-file/serviceShapes';

type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str: Check = (v) => typeof v === 'string';
const int: Check = (v) => Number.isSafeInteger(v);
const bool: Check = (v) => typeof v === 'boolean';
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);

/** The one key that a plain copy would not copy as data (it would set the copy's prototype). */
const UNSAFE_KEY = '__proto__';

/**
 * A loose object of these fields (in the shape's order; optional ones may be absent), each as its
 * check wants, and (`ordered`) its keys in the order zod writes them. The service sends every
 * donation with the same keys: the last list of keys found in order is remembered, and a list the
 * same as it is not looked at again.
 */
function loose(fields: ReadonlyArray<[key: string, check: Check, optional?: true]>, ordered = true): Check {
  const at = new Map(fields.map(([key], i) => [key, i]));
  const inOrder = (keys: string[]): boolean => {
    let next = 0;
    let extra = false;
    for (const key of keys) {
      if (key === UNSAFE_KEY) return false;
      if (!ordered) continue;
      const i = at.get(key);
      if (i === undefined) extra = true;
      else if (extra || i < next) return false;
      else next = i + 1;
    }
    return true;
  };
  let known: string[] = [];
  return (v) => {
    if (!isObject(v)) return false;
    const keys = Object.keys(v);
    if (!sameKeys(keys, known)) {
      if (!inOrder(keys)) return false;
      known = keys;
    }
    for (const [key, check, optional] of fields) {
      // Parsed JSON holds no undefined: undefined is an absent key (none of these is inherited).
      const value = v[key];
      if (value === undefined) {
        if (!optional) return false;
      } else if (!check(value)) return false;
    }
    return true;
  };
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function record(value: Check): Check {
  return (v) => {
    if (!isObject(v)) return false;
    for (const key of Object.keys(v)) if (key === UNSAFE_KEY || !value(v[key])) return false;
    return true;
  };
}

/** No error objects: those go through zod (see above). */
const noErrors: Check = (v) => Array.isArray(v) && v.length === 0;

const donation = loose([
  ['type', (v) => v === 'donations'],
  ['id', str],
  [
    'attributes',
    loose([
      [
        'destination',
        loose([
          ['recipientId', str],
          ['foundationId', str, true],
        ]),
      ],
      [
        'funds',
        loose([
          ['paymentType', str],
          ['currencyCode', str],
          ['amount', int],
          ['source', str, true],
          ['receiptId', str, true],
        ]),
      ],
      [
        'donor',
        nullable(
          loose([
            ['receipted', bool, true],
            ['fullName', str, true],
            ['email', str, true],
            ['address', record(nullable(str)), true],
          ]),
        ),
        true,
      ],
      ['metadata', nullable(record(str)), true],
      ['payable', nullable(loose([['paymentType', oneOf(['CHEQUE', 'EFT', 'PAYPAL'])]])), true],
      [
        'state',
        loose([
          ['processingStatus', oneOf(PROCESSING_STATUSES)],
          ['statusLastUpdated', str, true],
          ['errors', noErrors, true],
        ]),
      ],
      ['bulkId', nullable(str), true],
    ]),
  ],
]);

const page = loose(
  [
    [
      'meta',
      loose([
        ['count', (v) => int(v) && (v as number) >= 0],
        ['page', loose([['rangeTruncated', bool, true]]), true],
      ]),
    ],
    [
      'links',
      loose([
        ['previous', nullable(str), true],
        ['next', nullable(str), true],
      ]),
      true,
    ],
    // The donations are checked one by one below.
    ['data', Array.isArray],
    // In any order: the page itself is rebuilt in zod's (it is read, never stored).
  ],
  false,
);

const PAGE_KEYS = ['meta', 'links', 'data'];

/** The page's own object in the order zod writes its keys: the shape's, then the others. */
function inZodOrder(json: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of PAGE_KEYS) if (Object.hasOwn(json, key)) out[key] = json[key];
  for (const key of Object.keys(json)) if (!PAGE_KEYS.includes(key)) out[key] = json[key];
  return out;
}

/** Whether zod would give this donation back as it is (see above). */
export function donationAsIs(v: unknown): boolean {
  return donation(v);
}

/**
 * GET /donations's answer as `donationListResponseSchema.safeParse` gives it: the parsed
 * donations themselves where zod would give them back unchanged, each other donation as zod makes it, and zod's own
 * answer (its message included) when the page, or a donation of it, is not of the expected shape.
 */
export function parseDonationList(json: unknown): z.ZodSafeParseResult<DonationListResponse> {
  if (!page(json)) return donationListResponseSchema.safeParse(json);
  const data = (json as { data: unknown[] }).data;
  for (let i = 0; i < data.length; i++) {
    if (donation(data[i])) continue;
    const one = donationResourceSchema.safeParse(data[i]);
    // Zod's message names the donation's place in the page: the whole page is parsed to give it.
    if (!one.success) return donationListResponseSchema.safeParse(json);
    data[i] = one.data;
  }
  return { success: true, data: inZodOrder(json as Record<string, unknown>) as DonationListResponse };
}
