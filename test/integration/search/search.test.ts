import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GivingOpportunity } from '../../../shared/contract/searchChannels';
import { startDeskHarness, type DeskHarness } from '../locations/harness';

let h: DeskHarness;
beforeAll(async () => {
  h = await startDeskHarness();
});
afterAll(async () => {
  await h.close();
});

function km(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const x =
    Math.sin(((bLat - aLat) * rad) / 2) ** 2 +
    Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(((bLon - aLon) * rad) / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(x));
}

const nearest = (o: GivingOpportunity, lat: number, lon: number) =>
  Math.min(
    ...[...(o.causes ?? []), ...(o.projects ?? [])].map((c) =>
      c.geo_coordinates
        ? km(lat, lon, Number(c.geo_coordinates.latitude), Number(c.geo_coordinates.longitude))
        : Infinity,
    ),
  );

describe('search.run (GET /search/givingopportunities)', () => {
  it('returns parsed results with <em>-only snippets and the program address', async () => {
    const { results, programUrl } = await h.call('search.run', { q: 'food' });
    expect(results.length).toBeGreaterThan(0);
    expect(programUrl).toBe(h.emu.programUrl);
    const marked = results.flatMap((r) => [...(r.snippets?.title ?? []), ...(r.snippets?.body ?? [])]);
    expect(marked.some((s) => s.includes('<em>'))).toBe(true);
    for (const s of marked) expect(s.replace(/<\/?em>/g, '')).not.toMatch(/<[a-z/]/i);
  });

  it('ranks results near a registered location higher when near is given', async () => {
    const sydney = { latitude: -33.8688, longitude: 151.2093 };
    const { outcomes } = await h.call('locations.batch', {
      items: [
        {
          action: 'save',
          location: {
            name: 'Sydney office',
            referenceId: 'SYD-1',
            address: { addressLine: '1 George St', country: 'AU', locality: 'Sydney', geoCoordinate: sydney },
          },
        },
      ],
    });
    expect(outcomes[0]?.status).toBe('applied');
    const registered = (await h.call('locations.list', {})).locations[0]!.location.address!.geoCoordinate!;
    const plain = await h.call('search.run', { q: 'wildlife' });
    const near = await h.call('search.run', { q: 'wildlife', near: registered });
    const avg = (list: GivingOpportunity[]) =>
      list.slice(0, 5).reduce((s, o) => s + nearest(o, sydney.latitude, sydney.longitude), 0) /
      Math.min(5, list.length);
    expect(avg(near.results)).toBeLessThan(avg(plain.results));
    expect(nearest(near.results[0]!, sydney.latitude, sydney.longitude)).toBeLessThan(200);
  });

  it('corrects misspellings only when autocorrect is on', async () => {
    expect((await h.call('search.run', { q: 'libary' })).results).toEqual([]);
    const corrected = await h.call('search.run', { q: 'libary', autocorrect: true });
    expect(corrected.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(corrected.results[0]!.snippets).toLowerCase()).toContain('<em>library</em>');
  });

  it('refuses out-of-range coordinates before calling the service', async () => {
    const result = await h.attempt('search.run', { q: 'food', near: { latitude: 91, longitude: 0 } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_INPUT');
  });

  it('names the call when the service keeps failing', async () => {
    await h.control('faults', { error500Rate: 1 });
    try {
      const result = await h.attempt('search.run', { q: 'food' });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).toContain('GET /search/givingopportunities');
    } finally {
      await h.control('faults', { reset: true });
    }
  });
});

describe('search.image', () => {
  it('fetches a program image in main and returns it as a data: URL', async () => {
    const { results } = await h.call('search.run', { q: 'food' });
    const { dataUrl } = await h.call('search.image', { path: results[0]!.image_url! });
    expect(dataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('refuses anything that is not a path on the program domain', async () => {
    for (const path of ['//evil.example/x.png', 'https://evil.example/x.png', '/images/none.svg']) {
      expect((await h.call('search.image', { path })).dataUrl).toBeNull();
    }
  });
});

describe('search.recipient', () => {
  it('finds the cause id, and the cause/project pair, for names shown in a result', async () => {
    const { results } = await h.call('search.run', { q: 'initiative' });
    const withProject = results.find((r) => (r.projects ?? []).some((p) => p.cause?.name));
    expect(withProject).toBeDefined();
    const project = withProject!.projects!.find((p) => p.cause?.name)!;
    const cause = await h.call('search.recipient', { causeName: project.cause!.name });
    expect(cause.recipientId).toMatch(/^[^/]+$/);
    const pair = await h.call('search.recipient', {
      causeName: project.cause!.name,
      projectName: project.name,
    });
    expect(pair.recipientId).toMatch(new RegExp(`^${cause.recipientId}/.+`));
  });

  it('says so when a cause is not found', async () => {
    const result = await h.attempt('search.recipient', { causeName: 'No Such Cause Anywhere' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('NOT_FOUND');
  });
});
