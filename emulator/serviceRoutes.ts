import { createIntent, renderIntent, uploadFields } from './bulk';
import type { Cause } from './catalogue';
import { validateDonation } from './donationRules';
import { renderDonation } from './donations';
import { ApiError, isRecord, notFound, readJson, sendJson } from './http';
import { type RequestContext, type Route, route } from './router';
import { SearchIndex } from './search';

const searchIndexes = new WeakMap<object, SearchIndex>();

function searchIndex(ctx: RequestContext): SearchIndex {
  let index = searchIndexes.get(ctx.core);
  if (!index) {
    const programUrl = ctx.programUrl;
    index = new SearchIndex(ctx.core.catalogue, () => programUrl);
    searchIndexes.set(ctx.core, index);
  }
  return index;
}

function parseLocation(value: string): { latitude: number; longitude: number } {
  const match = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(value);
  const latitude = Number(match?.[1]);
  const longitude = Number(match?.[2]);
  if (!match || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw ApiError.single(
      400,
      'INVALID_PARAMETER',
      'Invalid search location',
      'search_location must be "<latitude>,<longitude>" in decimal degrees.',
      { parameter: 'search_location' },
    );
  }
  return { latitude, longitude };
}

function searchOpportunities(ctx: RequestContext): void {
  const params = ctx.url.searchParams;
  const q = params.get('q');
  if (q === null || q.trim() === '') {
    throw ApiError.single(400, 'REQUIRED', 'Missing search topic', 'q is required.', { parameter: 'q' });
  }
  const autocorrect = params.get('autocorrect');
  if (autocorrect !== null && autocorrect !== 'true' && autocorrect !== 'false') {
    throw ApiError.single(
      400,
      'INVALID_PARAMETER',
      'Invalid autocorrect',
      'autocorrect must be true or false.',
      {
        parameter: 'autocorrect',
      },
    );
  }
  const location = params.get('search_location');
  const result = searchIndex(ctx).search(
    {
      q,
      autocorrect: autocorrect === 'true',
      ...(location !== null ? { location: parseLocation(location) } : {}),
    },
    ctx.core.nowMs(),
    ctx.core.catalogueAnchorMs,
  );
  sendJson(ctx.res, 200, result, 'application/json');
}

function autocompleteCauses(ctx: RequestContext): void {
  const q = ctx.url.searchParams.get('q');
  if (q === null || q.trim() === '') {
    throw ApiError.single(400, 'REQUIRED', 'Missing query', 'q is required.', { parameter: 'q' });
  }
  sendJson(ctx.res, 200, { data: searchIndex(ctx).autocomplete(q) });
}

function renderCause(ctx: RequestContext, cause: Cause): unknown {
  return {
    data: {
      type: 'causes',
      id: cause.id,
      attributes: {
        name: cause.name,
        description: cause.description,
        logoUrl: `${ctx.programUrl}${cause.logoUrl}`,
        address: cause.address,
        geoCoordinates: { latitude: cause.latitude, longitude: cause.longitude },
        categories: cause.categories,
        tags: cause.tags,
        certification: cause.certification,
        ownerVerified: cause.ownerVerified,
        accounts: cause.accounts.map((a) => ({
          id: a.id,
          paymentType: a.paymentType,
          currencyCode: a.currencyCode,
          preferred: a.preferred,
        })),
        paymentTypes: [...new Set(cause.accounts.map((a) => a.paymentType))],
        projects: cause.projects.map((p) => ({
          id: p.id,
          recipientId: `${cause.id}/${p.id}`,
          name: p.name,
          geoCoordinates: { latitude: p.latitude, longitude: p.longitude },
        })),
      },
    },
  };
}

function getCause(ctx: RequestContext): void {
  const id = ctx.params['id'] ?? '';
  const cause = ctx.core.catalogue.causeById.get(id);
  if (!cause) throw notFound('Cause', id);
  sendJson(ctx.res, 200, renderCause(ctx, cause));
}

function ping(ctx: RequestContext): void {
  sendJson(ctx.res, 200, {
    data: {
      type: 'ping',
      id: 'payments',
      attributes: { status: 'UP', serverTime: ctx.core.now().toISOString() },
    },
  });
}

async function createDonation(ctx: RequestContext): Promise<void> {
  const body = await readJson(ctx.req);
  if (!isRecord(body) || !('data' in body)) {
    throw ApiError.single(
      400,
      'REQUIRED',
      'Missing data',
      'The body must be {"data": {"type": "donations", "attributes": {...}}}.',
      {
        pointer: '/data',
      },
    );
  }
  const result = validateDonation(body['data'], '/data');
  if (!result.ok) throw new ApiError(400, result.errors);
  const record = ctx.core.createDonation(result.input, ctx.core.nowMs(), null);
  sendJson(ctx.res, 201, { data: renderDonation(record, ctx.core.nowMs()) }, undefined, {
    Location: `${ctx.apiBaseUrl}/donations/${record.id}`,
  });
}

function getDonation(ctx: RequestContext): void {
  const id = ctx.params['id'] ?? '';
  const record = ctx.core.donations.get(id);
  if (!record) throw notFound('Donation', id);
  sendJson(ctx.res, 200, { data: renderDonation(record, ctx.core.nowMs()) });
}

function listDonations(ctx: RequestContext): void {
  sendJson(ctx.res, 200, ctx.core.donations.list(ctx.url.searchParams, ctx.core.nowMs(), ctx.apiBaseUrl));
}

async function createBulkIntent(ctx: RequestContext): Promise<void> {
  // The request body is not shown in the spec: accept none, {} or {"data": {"type": "bulkDonationIntent"}}.
  const body = await readJson(ctx.req);
  if (body !== undefined) {
    const data = isRecord(body) ? body['data'] : undefined;
    const typeOk =
      data === undefined ||
      (isRecord(data) && (data['type'] === undefined || data['type'] === 'bulkDonationIntent'));
    if (!isRecord(body) || !typeOk) {
      throw ApiError.single(
        400,
        'INVALID_TYPE',
        'Invalid resource type',
        'data.type must be "bulkDonationIntent".',
        {
          pointer: '/data/type',
        },
      );
    }
  }
  const bulk = createIntent(ctx.core);
  const rendered = renderIntent(ctx.core, bulk, ctx.apiBaseUrl, ctx.uploadBaseUrl) as {
    data: { attributes: Record<string, unknown> };
  };
  const attributes = rendered.data.attributes;
  const fields = uploadFields(ctx.core, bulk);
  delete attributes['updatedAt'];
  attributes['url'] = `${ctx.uploadBaseUrl}/${fields['bucket'] ?? ''}`;
  attributes['fields'] = fields;
  sendJson(ctx.res, 201, rendered, undefined, {
    Location: `${ctx.apiBaseUrl}/donations/bulk-intents/${bulk.id}`,
  });
}

function getBulkIntent(ctx: RequestContext): void {
  const id = ctx.params['id'] ?? '';
  const bulk = ctx.core.bulks.get(id);
  if (!bulk) throw notFound('Bulk intent', id);
  sendJson(ctx.res, 200, renderIntent(ctx.core, bulk, ctx.apiBaseUrl, ctx.uploadBaseUrl));
}

export const serviceRoutes: Route[] = [
  route('GET', '/search/givingopportunities', searchOpportunities),
  route('GET', '/autocomplete/causes', autocompleteCauses),
  route('GET', '/causes/:id', getCause),
  route('GET', '/payments/ping', ping),
  route('POST', '/donations/bulk-intents', createBulkIntent),
  route('GET', '/donations/bulk-intents/:id', getBulkIntent),
  route('POST', '/donations', createDonation),
  route('GET', '/donations', listDonations),
  route('GET', '/donations/:id', getDonation),
];
