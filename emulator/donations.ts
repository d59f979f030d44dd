import type { DonationInput } from './donationRules';
import { ApiError } from './http';
import { DONATION_STATUSES, type DonationStatus, type TimelineEntry, stateAt } from './lifecycle';

export interface DonationRecord {
  id: string;
  /** Creation order; the pagination cursor is built on it, so pages never skip or repeat a donation. */
  seq: number;
  createdAt: number;
  input: DonationInput;
  bulkId: string | null;
  timeline: TimelineEntry[];
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 250;

export class DonationStore {
  readonly all: DonationRecord[] = [];
  private readonly byId = new Map<string, DonationRecord>();
  private readonly byBulk = new Map<string, DonationRecord[]>();

  add(record: DonationRecord): void {
    this.all.push(record);
    this.byId.set(record.id, record);
    if (record.bulkId) {
      let list = this.byBulk.get(record.bulkId);
      if (!list) this.byBulk.set(record.bulkId, (list = []));
      list.push(record);
    }
  }

  get(id: string): DonationRecord | undefined {
    return this.byId.get(id);
  }

  clear(): void {
    this.all.length = 0;
    this.byId.clear();
    this.byBulk.clear();
  }

  forBulk(bulkId: string): DonationRecord[] {
    return this.byBulk.get(bulkId) ?? [];
  }

  list(query: URLSearchParams, nowMs: number, baseUrl: string): unknown {
    const parsed = parseListQuery(query);
    const source = parsed.bulk !== undefined ? this.forBulk(parsed.bulk) : this.all;
    const matches = (r: DonationRecord): boolean =>
      parsed.status === undefined || stateAt(r.timeline, nowMs).status === parsed.status;
    const page: DonationRecord[] = [];
    let truncated = false;
    if (parsed.before !== undefined) {
      // Walk backwards from the cursor, then restore creation order for the response.
      for (let i = lowerBound(source, parsed.before) - 1; i >= 0; i--) {
        const record = source[i] as DonationRecord;
        if (!matches(record)) continue;
        if (page.length === parsed.size) {
          truncated = true;
          break;
        }
        page.push(record);
      }
      page.reverse();
    } else {
      const after = parsed.after ?? 0;
      for (let i = lowerBound(source, after + 1); i < source.length; i++) {
        const record = source[i] as DonationRecord;
        if (!matches(record)) continue;
        if (page.length === parsed.size) {
          truncated = true;
          break;
        }
        page.push(record);
      }
    }
    const first = page[0];
    const last = page[page.length - 1];
    const nextAfter = last ? last.seq : parsed.before !== undefined ? parsed.before - 1 : (parsed.after ?? 0);
    const previousBefore = first
      ? first.seq
      : parsed.before !== undefined
        ? parsed.before
        : (parsed.after ?? 0) + 1;
    const link = (key: 'page[after]' | 'page[before]', seq: number): string => {
      const params = new URLSearchParams();
      if (parsed.bulk !== undefined) params.set('filter[bulk]', parsed.bulk);
      if (parsed.status !== undefined) params.set('filter[status]', parsed.status);
      if (parsed.sizeGiven) params.set('page[size]', String(parsed.requestedSize));
      params.set(key, encodeCursor(seq));
      return `${baseUrl}/donations?${params.toString()}`;
    };
    return {
      data: page.map((r) => renderDonation(r, nowMs)),
      meta: { count: page.length, page: { rangeTruncated: truncated } },
      links: { previous: link('page[before]', previousBefore), next: link('page[after]', nextAfter) },
    };
  }
}

function lowerBound(records: readonly DonationRecord[], seq: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as DonationRecord).seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function encodeCursor(seq: number): string {
  return Buffer.from(`d:${seq}`).toString('base64url');
}

function decodeCursor(value: string, parameter: string): number {
  const decoded = Buffer.from(value, 'base64url').toString('utf8');
  const match = /^d:(\d{1,15})$/.exec(decoded);
  if (!match) {
    throw ApiError.single(
      400,
      'INVALID_CURSOR',
      'Invalid page cursor',
      `${parameter} is not a cursor from a links url.`,
      {
        parameter,
      },
    );
  }
  return Number(match[1]);
}

interface ListQuery {
  bulk?: string;
  status?: DonationStatus;
  size: number;
  requestedSize: number;
  sizeGiven: boolean;
  after?: number;
  before?: number;
}

const KNOWN_PARAMETERS = ['filter[bulk]', 'filter[status]', 'page[size]', 'page[after]', 'page[before]'];

function parseListQuery(query: URLSearchParams): ListQuery {
  for (const key of query.keys()) {
    if (!KNOWN_PARAMETERS.includes(key)) {
      throw ApiError.single(
        400,
        'UNKNOWN_PARAMETER',
        'Unknown query parameter',
        `"${key}" is not supported here.`,
        {
          parameter: key,
        },
      );
    }
  }
  const result: ListQuery = { size: DEFAULT_PAGE_SIZE, requestedSize: DEFAULT_PAGE_SIZE, sizeGiven: false };
  const bulk = query.get('filter[bulk]');
  if (bulk !== null) {
    if (bulk === '') {
      throw ApiError.single(
        400,
        'INVALID_FILTER',
        'Invalid filter',
        'filter[bulk] must be a bulk intent id.',
        {
          parameter: 'filter[bulk]',
        },
      );
    }
    result.bulk = bulk;
  }
  const status = query.get('filter[status]');
  if (status !== null) {
    if (!DONATION_STATUSES.includes(status as DonationStatus)) {
      throw ApiError.single(
        400,
        'INVALID_FILTER',
        'Invalid status filter',
        `filter[status] must be one of ${DONATION_STATUSES.join(', ')}.`,
        { parameter: 'filter[status]' },
      );
    }
    result.status = status as DonationStatus;
  }
  const size = query.get('page[size]');
  if (size !== null) {
    if (!/^\d{1,9}$/.test(size) || Number(size) < 1) {
      throw ApiError.single(
        400,
        'INVALID_PAGE_SIZE',
        'Invalid page size',
        'page[size] must be a positive integer.',
        {
          parameter: 'page[size]',
        },
      );
    }
    result.requestedSize = Number(size);
    result.size = Math.min(Number(size), MAX_PAGE_SIZE);
    result.sizeGiven = true;
  }
  const after = query.get('page[after]');
  const before = query.get('page[before]');
  if (after !== null && before !== null) {
    throw ApiError.single(
      400,
      'INVALID_CURSOR',
      'Conflicting cursors',
      'Give page[after] or page[before], not both.',
      {
        parameter: 'page[before]',
      },
    );
  }
  if (after !== null) result.after = decodeCursor(after, 'page[after]');
  if (before !== null) result.before = decodeCursor(before, 'page[before]');
  return result;
}

export function renderDonation(record: DonationRecord, nowMs: number): unknown {
  const state = stateAt(record.timeline, nowMs);
  const input = record.input;
  const funds: Record<string, unknown> = { ...input.funds };
  if (state.receiptId) funds['receiptId'] = state.receiptId;
  const attributes: Record<string, unknown> = {
    destination: input.destination,
    funds,
  };
  if (input.donor) attributes['donor'] = input.donor;
  if (input.metadata) attributes['metadata'] = input.metadata;
  if (state.payable) attributes['payable'] = { paymentType: state.payable };
  attributes['state'] = {
    processingStatus: state.status,
    statusLastUpdated: new Date(state.lastUpdated).toISOString(),
    ...(state.errors ? { errors: state.errors } : {}),
  };
  attributes['bulkId'] = record.bulkId;
  return { type: 'donations', id: record.id, attributes };
}
