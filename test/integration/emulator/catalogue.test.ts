import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../emulator/catalogue';
import { type Harness, type Json, startHarness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.emu.close();
});

async function search(query: string): Promise<Json[]> {
  const res = await h.api('GET', `/search/givingopportunities?${query}`);
  expect(res.status).toBe(200);
  expect(Object.keys(res.body)).toEqual(['giving_opportunities']);
  return res.body.giving_opportunities as Json[];
}

function km(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const h2 =
    Math.sin(((bLat - aLat) * rad) / 2) ** 2 +
    Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(((bLon - aLon) * rad) / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(h2));
}

describe('giving-opportunity search', () => {
  it('has a seeded catalogue of at least 500 opportunities, the same for the same seed', async () => {
    const info = (await h.control('info')).body;
    expect(info.counts.givingOpportunities).toBeGreaterThanOrEqual(500);
    const other = await startHarness({ seed: 42 });
    try {
      const a = await search('q=literacy');
      const res = await other.api('GET', '/search/givingopportunities?q=literacy');
      expect(res.body.giving_opportunities.map((o: Json) => o.id)).toEqual(a.map((o) => o.id));
    } finally {
      await other.emu.close();
    }
  });

  it('returns items with every field of the spec, and <em> snippets', async () => {
    const items = await search('q=food');
    expect(items.length).toBeGreaterThan(0);
    const item = items[0];
    expect(item).toEqual({
      id: expect.any(Number),
      title: expect.any(String),
      description: expect.any(String),
      image_url: expect.stringMatching(/^\/images\/opportunities\/\d+\.svg$/),
      creator_id: expect.any(String),
      creator_name: item.creator_name === null ? null : expect.any(String),
      creator_type: expect.stringMatching(/^(company|cause)$/),
      peer_match: expect.any(Boolean),
      company_match: expect.any(Boolean),
      portfolio_code: expect.any(String),
      projects: expect.any(Array),
      causes: expect.any(Array),
      tags: item.tags === null ? null : expect.any(Array),
      product_area: item.product_area,
      office_location: item.office_location,
      snippets: {
        cause: item.snippets.cause,
        tag: item.snippets.tag,
        title: expect.any(Array),
        body: expect.any(Array),
      },
    });
    expect(item.causes[0]).toEqual({
      name: expect.any(String),
      logo_url: expect.any(String),
      geo_coordinates: {
        latitude: expect.stringMatching(/^-?\d+\.\d+$/),
        longitude: expect.stringMatching(/^-?\d+\.\d+$/),
      },
    });
    for (const o of items) {
      const snippets = [
        ...o.snippets.title,
        ...o.snippets.body,
        o.snippets.cause ?? '',
        ...(o.snippets.tag ?? []),
      ].join(' ');
      expect(snippets.toLowerCase()).toContain('<em>food</em>');
      expect(snippets.replace(/<\/?em>/g, '')).not.toMatch(/[<>]/);
    }
    const withProject = (await search('q=initiative'))
      .concat(await search('q=programme'))
      .find((o) => o.projects.length > 0);
    expect(withProject?.projects[0]).toEqual({
      name: expect.any(String),
      cause: { name: expect.any(String), logo_url: expect.any(String) },
      geo_coordinates: { latitude: expect.any(String), longitude: expect.any(String) },
    });
  });

  it('matches the cause address and name too', async () => {
    const items = await search('q=Toronto');
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((o) => JSON.stringify(o).includes('Toronto'))).toBe(true);
  });

  it('lists newest and soon-happening first without a location', async () => {
    // The clock is frozen and never advanced in this file, so the catalogue anchor is the current time.
    const byId = new Map(buildCatalogue(42).opportunities.map((o) => [o.id, o]));
    const freshness = (id: number): number => {
      const o = byId.get(id);
      if (!o) throw new Error(`unknown opportunity ${id}`);
      const created = 1 / (1 + -o.createdOffsetDays / 30);
      const soon =
        o.eventOffsetDays !== null && o.eventOffsetDays >= 0 ? 1 / (1 + o.eventOffsetDays / 30) : 0;
      return Math.max(created, soon);
    };
    const items = await search('q=education');
    expect(items.length).toBeGreaterThan(5);
    const scores = items.map((o) => freshness(o.id as number));
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
  });

  it('boosts opportunities near search_location', async () => {
    const sydney = { lat: -33.8688, lon: 151.2093 };
    const plain = await search('q=wildlife');
    const near = await search(`q=wildlife&search_location=${sydney.lat},${sydney.lon}`);
    const distance = (o: Json): number =>
      Math.min(
        ...o.causes.map((c: Json) =>
          km(sydney.lat, sydney.lon, Number(c.geo_coordinates.latitude), Number(c.geo_coordinates.longitude)),
        ),
      );
    const avg = (list: Json[]): number =>
      list.slice(0, 5).reduce((s, o) => s + distance(o), 0) / Math.min(5, list.length);
    expect(avg(near)).toBeLessThan(avg(plain));
    expect(distance(near[0])).toBeLessThan(200);
  });

  it('corrects misspellings only with autocorrect=true', async () => {
    expect(await search('q=libary')).toEqual([]);
    const corrected = await search('q=libary&autocorrect=true');
    expect(corrected.length).toBeGreaterThan(0);
    expect(JSON.stringify(corrected[0].snippets).toLowerCase()).toContain('<em>library</em>');
  });

  it('refuses a missing q and a malformed search_location or autocorrect', async () => {
    expect((await h.api('GET', '/search/givingopportunities')).status).toBe(400);
    expect((await h.api('GET', '/search/givingopportunities?q=food&search_location=north')).status).toBe(400);
    expect((await h.api('GET', '/search/givingopportunities?q=food&autocorrect=maybe')).status).toBe(400);
  });
});

describe('causes, autocomplete and ping', () => {
  it('GET /causes/{id} gives categories, tags, certification, ownerVerified and accounts with payment types', async () => {
    const samples = (await h.control('info')).body.samples;
    const id = samples.causesInGoodStanding[0].id as string;
    expect(id).toMatch(/^\d{3}-\d{9}$/);
    const res = await h.api('GET', `/causes/${id}`);
    expect(res.status).toBe(200);
    const attrs = res.body.data.attributes;
    expect(res.body.data).toMatchObject({ type: 'causes', id });
    expect(attrs.categories.length).toBeGreaterThan(0);
    expect(attrs.tags.length).toBeGreaterThan(0);
    expect(attrs.certification).toHaveProperty('status');
    expect(typeof attrs.ownerVerified).toBe('boolean');
    expect(attrs.accounts.length).toBeGreaterThan(0);
    for (const a of attrs.accounts) expect(['EFT', 'CHEQUE', 'PAYPAL']).toContain(a.paymentType);
    const [causeId, projectId] = (samples.project as string).split('/');
    const withProject = await h.api('GET', `/causes/${causeId}`);
    expect(withProject.body.data.attributes.projects.map((p: Json) => p.id)).toContain(projectId);
    expect(projectId).toMatch(/^[A-Z0-9]{10}$/);
    for (const p of samples.portfolios as string[]) expect(p).toMatch(/^P-[A-Z0-9]{8}$/);
  });

  it('GET /causes/{id} answers 404 for an unknown cause', async () => {
    const res = await h.api('GET', '/causes/840-000000000');
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ status: '404', code: 'NOT_FOUND' });
  });

  it('autocompletes cause names by prefix', async () => {
    const res = await h.api('GET', '/autocomplete/causes?q=hop');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.length).toBeLessThanOrEqual(10);
    for (const c of res.body.data) expect(c.attributes.name.toLowerCase()).toMatch(/(^|\s)hop/);
    expect((await h.api('GET', '/autocomplete/causes')).status).toBe(400);
  });

  it('answers the payments ping', async () => {
    const res = await h.api('GET', '/payments/ping');
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.status).toBe('UP');
  });

  it('answers 404 and 405 as JSON:API errors', async () => {
    expect((await h.api('GET', '/nope')).body.errors[0].status).toBe('404');
    expect((await h.api('DELETE', '/donations')).status).toBe(405);
  });
});

describe('program pages', () => {
  it('serves images for image_url paths and logo urls, and donation pages', async () => {
    const [item] = await search('q=food');
    const image = await fetch(`${h.emu.programUrl}${item.image_url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect(await image.text()).toMatch(/^<svg/);
    const logo = await fetch(item.causes[0].logo_url);
    expect(logo.status).toBe(200);
    const page = await fetch(`${h.emu.programUrl}/en-US/campaigns/donate/${item.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<h1>');
    expect((await fetch(`${h.emu.programUrl}/en-US/campaigns/donate/1`)).status).toBe(404);
  });
});
