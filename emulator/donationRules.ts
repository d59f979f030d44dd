import { ISO_4217_CODES } from './currencies';
import { type ErrorObject, errorObject, isRecord, pointerToken } from './http';

/** What a valid create request carries, after the checks below. */
export interface DonationInput {
  destination: { recipientId: string; foundationId?: string };
  funds: { paymentType: 'DONATION_REPORT'; currencyCode: string; amount: number; source: 'COMPANY' };
  donor?: {
    receipted?: boolean;
    fullName?: string;
    email?: string;
    address?: Partial<Record<'line1' | 'line2' | 'city' | 'state' | 'zip' | 'country', string>>;
  };
  metadata?: Record<string, string>;
}

export const CAUSE_ID = /^\d{3}-\d{9}$/;
export const PROJECT_ID = /^[A-Z0-9]{10}$/;
export const PORTFOLIO_ID = /^P-[A-Z0-9]{8}$/;
const METADATA_KEY = /^[A-Za-z0-9 _-]{1,64}$/;
const SURROGATE = /[\uD800-\uDFFF]/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type RecipientShape =
  | { kind: 'cause'; causeId: string }
  | { kind: 'project'; causeId: string; projectId: string }
  | { kind: 'portfolio'; portfolioId: string };

export function recipientShape(recipientId: string): RecipientShape | undefined {
  if (CAUSE_ID.test(recipientId)) return { kind: 'cause', causeId: recipientId };
  if (PORTFOLIO_ID.test(recipientId)) return { kind: 'portfolio', portfolioId: recipientId };
  const [causeId, projectId, extra] = recipientId.split('/');
  if (extra === undefined && causeId && projectId && CAUSE_ID.test(causeId) && PROJECT_ID.test(projectId)) {
    return { kind: 'project', causeId, projectId };
  }
  return undefined;
}

class Collector {
  readonly errors: ErrorObject[] = [];
  constructor(private readonly base: string) {}

  add(path: Array<string | number>, code: string, title: string, detail: string): void {
    const pointer = `${this.base}/${path.map(pointerToken).join('/')}`;
    this.errors.push(errorObject(400, code, title, detail, { pointer }));
  }

  missing(path: Array<string | number>): void {
    this.add(path, 'REQUIRED', 'Missing required attribute', `${path.join('.')} is required.`);
  }

  unknownKeys(
    value: Record<string, unknown>,
    allowed: readonly string[],
    path: Array<string | number>,
  ): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) {
        this.add(
          [...path, key],
          'UNKNOWN_ATTRIBUTE',
          'Unknown attribute',
          `${[...path, key].join('.')} is not an attribute that can be set on a donation.`,
        );
      }
    }
  }
}

function checkOptionalString(c: Collector, value: unknown, path: Array<string | number>): void {
  if (value !== undefined && typeof value !== 'string') {
    c.add(path, 'INVALID_TYPE', 'Invalid attribute type', `${path.join('.')} must be a string.`);
  }
}

/**
 * Checks one donation resource object (`{type, attributes}`) against every rule of the spec.
 * `base` is the JSON pointer of the resource object: `/data` for POST /donations, `/data/<i>` in a bulk file.
 */
export function validateDonation(
  resource: unknown,
  base: string,
): { ok: true; input: DonationInput } | { ok: false; errors: ErrorObject[] } {
  const c = new Collector(base);
  if (!isRecord(resource)) {
    c.add([], 'INVALID_TYPE', 'Invalid donation', 'A donation must be a JSON object.');
    return { ok: false, errors: c.errors };
  }
  if (resource['type'] !== 'donations') {
    c.add(['type'], 'INVALID_TYPE', 'Invalid resource type', 'type must be "donations".');
  }
  const attributes = resource['attributes'];
  if (!isRecord(attributes)) {
    if (attributes === undefined) c.missing(['attributes']);
    else c.add(['attributes'], 'INVALID_TYPE', 'Invalid attributes', 'attributes must be an object.');
    return { ok: false, errors: c.errors };
  }
  const at: Array<string | number> = ['attributes'];
  c.unknownKeys(attributes, ['destination', 'funds', 'donor', 'metadata'], at);

  const destination = attributes['destination'];
  if (!isRecord(destination)) {
    if (destination === undefined) c.missing([...at, 'destination', 'recipientId']);
    else
      c.add([...at, 'destination'], 'INVALID_TYPE', 'Invalid destination', 'destination must be an object.');
  } else {
    c.unknownKeys(destination, ['recipientId', 'foundationId'], [...at, 'destination']);
    const recipientId = destination['recipientId'];
    if (recipientId === undefined || recipientId === null || recipientId === '') {
      c.missing([...at, 'destination', 'recipientId']);
    } else if (typeof recipientId !== 'string') {
      c.add(
        [...at, 'destination', 'recipientId'],
        'INVALID_TYPE',
        'Invalid recipient id',
        'recipientId must be a string.',
      );
    } else if (!recipientShape(recipientId)) {
      c.add(
        [...at, 'destination', 'recipientId'],
        'INVALID_RECIPIENT_ID',
        'Invalid recipient id',
        `"${recipientId}" is not a cause id (840-123456789), a cause/project pair (840-123456789/4X7K2M9QPL) or a portfolio id (P-7KQ2M9XA).`,
      );
    }
    const foundationId = destination['foundationId'];
    if (foundationId !== undefined && (typeof foundationId !== 'string' || foundationId.length === 0)) {
      c.add(
        [...at, 'destination', 'foundationId'],
        'INVALID_TYPE',
        'Invalid foundation id',
        'foundationId must be a non-empty string when given.',
      );
    }
  }

  const funds = attributes['funds'];
  if (!isRecord(funds)) {
    if (funds === undefined) c.missing([...at, 'funds']);
    else c.add([...at, 'funds'], 'INVALID_TYPE', 'Invalid funds', 'funds must be an object.');
  } else {
    c.unknownKeys(funds, ['paymentType', 'currencyCode', 'amount', 'source'], [...at, 'funds']);
    const paymentType = funds['paymentType'];
    if (paymentType === undefined) c.missing([...at, 'funds', 'paymentType']);
    else if (paymentType !== 'DONATION_REPORT') {
      c.add(
        [...at, 'funds', 'paymentType'],
        'INVALID_PAYMENT_TYPE',
        'Invalid payment type',
        'Company post-paid donations use paymentType "DONATION_REPORT".',
      );
    }
    const currencyCode = funds['currencyCode'];
    if (currencyCode === undefined) c.missing([...at, 'funds', 'currencyCode']);
    else if (typeof currencyCode !== 'string' || !ISO_4217_CODES.has(currencyCode)) {
      c.add(
        [...at, 'funds', 'currencyCode'],
        'INVALID_CURRENCY',
        'Invalid currency code',
        `${JSON.stringify(currencyCode)} is not an ISO 4217 currency code (three capital letters, e.g. USD).`,
      );
    }
    const amount = funds['amount'];
    if (amount === undefined) c.missing([...at, 'funds', 'amount']);
    else if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
      c.add(
        [...at, 'funds', 'amount'],
        'INVALID_AMOUNT',
        'Invalid amount',
        'amount must be a positive integer in the smallest unit of the currency (e.g. cents).',
      );
    }
    const source = funds['source'];
    if (source !== undefined && source !== 'COMPANY') {
      c.add(
        [...at, 'funds', 'source'],
        'INVALID_SOURCE',
        'Invalid funds source',
        'source must be "COMPANY" when given.',
      );
    }
  }

  const donor = attributes['donor'];
  if (donor !== undefined && donor !== null) {
    if (!isRecord(donor)) {
      c.add([...at, 'donor'], 'INVALID_TYPE', 'Invalid donor', 'donor must be an object.');
    } else {
      c.unknownKeys(donor, ['receipted', 'fullName', 'email', 'address'], [...at, 'donor']);
      if (donor['receipted'] !== undefined && typeof donor['receipted'] !== 'boolean') {
        c.add(
          [...at, 'donor', 'receipted'],
          'INVALID_TYPE',
          'Invalid attribute type',
          'receipted must be a boolean.',
        );
      }
      checkOptionalString(c, donor['fullName'], [...at, 'donor', 'fullName']);
      const email = donor['email'];
      if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email))) {
        c.add(
          [...at, 'donor', 'email'],
          'INVALID_EMAIL',
          'Invalid email address',
          'donor.email is not a valid address.',
        );
      }
      const address = donor['address'];
      if (address !== undefined) {
        if (!isRecord(address)) {
          c.add([...at, 'donor', 'address'], 'INVALID_TYPE', 'Invalid address', 'address must be an object.');
        } else {
          const fields = ['line1', 'line2', 'city', 'state', 'zip', 'country'];
          c.unknownKeys(address, fields, [...at, 'donor', 'address']);
          for (const field of fields)
            checkOptionalString(c, address[field], [...at, 'donor', 'address', field]);
          const country = address['country'];
          if (typeof country === 'string' && !/^[A-Z]{2}$/.test(country)) {
            c.add(
              [...at, 'donor', 'address', 'country'],
              'INVALID_COUNTRY',
              'Invalid country',
              'country must be a two-letter country code such as US.',
            );
          }
        }
      }
    }
  }

  const metadata = attributes['metadata'];
  if (metadata !== undefined) {
    if (!isRecord(metadata)) {
      c.add(
        [...at, 'metadata'],
        'INVALID_TYPE',
        'Invalid metadata',
        'metadata must be an object of key/value pairs.',
      );
    } else {
      const entries = Object.entries(metadata);
      if (entries.length > 100) {
        c.add(
          [...at, 'metadata'],
          'METADATA_TOO_MANY_PAIRS',
          'Too many metadata pairs',
          `metadata has ${entries.length} pairs; at most 100 are allowed.`,
        );
      }
      for (const [key, value] of entries) {
        if (!METADATA_KEY.test(key)) {
          c.add(
            [...at, 'metadata', key],
            'METADATA_INVALID_KEY',
            'Invalid metadata key',
            'Keys are 1 to 64 characters: letters, digits, spaces, underscores and dashes only.',
          );
        }
        if (typeof value !== 'string' || value.length < 1 || value.length > 190 || SURROGATE.test(value)) {
          c.add(
            [...at, 'metadata', key],
            'METADATA_INVALID_VALUE',
            'Invalid metadata value',
            'Values are strings of 1 to 190 characters from the Basic Multilingual Plane (no surrogates, e.g. no emoji).',
          );
        }
      }
    }
  }

  if (c.errors.length > 0) return { ok: false, errors: c.errors };
  const attrs = attributes as Record<string, Record<string, unknown>>;
  const dest = attrs['destination'] as { recipientId: string; foundationId?: string };
  const f = attrs['funds'] as { currencyCode: string; amount: number };
  const input: DonationInput = {
    destination: {
      recipientId: dest.recipientId,
      ...(dest.foundationId ? { foundationId: dest.foundationId } : {}),
    },
    funds: {
      paymentType: 'DONATION_REPORT',
      currencyCode: f.currencyCode,
      amount: f.amount,
      source: 'COMPANY',
    },
  };
  if (isRecord(donor)) input.donor = donor as DonationInput['donor'];
  if (isRecord(metadata)) input.metadata = metadata as Record<string, string>;
  return { ok: true, input };
}
