import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Harness,
  type Info,
  type Json,
  bulkFile,
  bulkStatus,
  createIntent,
  donation,
  info,
  listAll,
  startHarness,
  upload,
} from './helpers';

let h: Harness;
let samples: Info;
let bulkId: string;
const BULK_SIZE = 1200;

beforeAll(async () => {
  h = await startHarness();
  samples = await info(h);
  const intent = await createIntent(h);
  const rows = Array.from({ length: BULK_SIZE }, (_, i) =>
    // Mix in recipients that will be declined so status filters have something to separate.
    donation(i % 10 === 0 ? samples.unknownCause : (samples.causesInGoodStanding[i % 7]?.id ?? ''), 100 + i, {
      metadata: { row: String(i) },
    }),
  );
  expect((await upload(intent, bulkFile(rows))).status).toBe(204);
  await h.emu.advance(3600);
  expect((await bulkStatus(h, intent.id)).body.data.attributes.status).toBe('PROCESSED');
  bulkId = intent.id;
});
afterAll(async () => {
  await h.emu.close();
});

function path(link: string): string {
  return link.replace(h.emu.apiBaseUrl, '');
}

describe('GET /donations pagination', () => {
  it('walks a bulk in many pages with nothing missed or repeated', async () => {
    const ids: string[] = [];
    let next: string | undefined = `/donations?filter[bulk]=${bulkId}&page[size]=37`;
    let pages = 0;
    while (next) {
      const res = await h.api('GET', next);
      expect(res.status).toBe(200);
      expect(res.body.meta.count).toBe(res.body.data.length);
      expect(res.body.data.length).toBeLessThanOrEqual(37);
      ids.push(...res.body.data.map((d: Json) => d.id as string));
      expect(res.body.links.next).toContain('page%5Bsize%5D=37');
      expect(res.body.links.next).toContain(`filter%5Bbulk%5D=${bulkId}`);
      next = res.body.meta.page.rangeTruncated ? path(res.body.links.next) : undefined;
      pages++;
    }
    expect(pages).toBe(Math.ceil(BULK_SIZE / 37));
    expect(new Set(ids).size).toBe(BULK_SIZE);
    expect(ids).toHaveLength(BULK_SIZE);
  });

  it('misses and repeats nothing while new donations arrive during the walk', async () => {
    const before = await listAll(h, 'page[size]=250');
    const created: string[] = [];
    const seen: string[] = [];
    let next: string | undefined = '/donations?page[size]=50';
    let round = 0;
    while (next) {
      const res = await h.api('GET', next);
      seen.push(...res.body.data.map((d: Json) => d.id as string));
      // New donations land between page reads, including a whole new bulk half-way through.
      if (round < 20) {
        const r = await h.api('POST', '/donations', {
          data: donation(samples.causesInGoodStanding[0]?.id ?? '', 5),
        });
        created.push(r.body.data.id as string);
      }
      if (round === 10) {
        const intent = await createIntent(h);
        await upload(intent, bulkFile([donation(samples.project, 9), donation(samples.project, 10)]));
        await h.emu.advance(3600);
        created.push(...(await listAll(h, `filter[bulk]=${intent.id}`)).map((d) => d.id));
      }
      round++;
      next = res.body.meta.page.rangeTruncated ? path(res.body.links.next) : undefined;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...before.map((d) => d.id), ...created]);
  });

  it('walks backwards with page[before] through links.previous', async () => {
    const pages: Json[] = [];
    let next: string | undefined = `/donations?filter[bulk]=${bulkId}&page[size]=100`;
    while (next) {
      const res = await h.api('GET', next);
      pages.push(res.body);
      next = res.body.meta.page.rangeTruncated ? path(res.body.links.next) : undefined;
    }
    const forward = pages.flatMap((p) => p.data.map((d: Json) => d.id as string));
    const last = pages[pages.length - 1];
    const backward: string[][] = [last.data.map((d: Json) => d.id as string)];
    let previous: string | undefined = path(last.links.previous);
    expect(previous).toContain('page%5Bbefore%5D=');
    while (previous) {
      const res = await h.api('GET', previous);
      expect(res.status).toBe(200);
      backward.unshift(res.body.data.map((d: Json) => d.id as string));
      previous = res.body.meta.page.rangeTruncated ? path(res.body.links.previous) : undefined;
    }
    expect(backward.flat()).toEqual(forward);
    expect(backward.length).toBe(Math.ceil(BULK_SIZE / 100));
  });

  it('caps page[size] at 250 and keeps the requested size in the links', async () => {
    const res = await h.api('GET', `/donations?filter[bulk]=${bulkId}&page[size]=1000`);
    expect(res.body.meta.count).toBe(250);
    expect(res.body.meta.page.rangeTruncated).toBe(true);
    expect(res.body.links.next).toContain('page%5Bsize%5D=1000');
    const small = await h.api('GET', `/donations?filter[bulk]=${bulkId}`);
    expect(small.body.meta.count).toBe(50);
  });

  it('filters by status across pages', async () => {
    await h.emu.advance(10 * 60);
    const declined = await listAll(h, `filter[bulk]=${bulkId}&filter[status]=DECLINED&page[size]=13`);
    expect(declined).toHaveLength(BULK_SIZE / 10);
    for (const d of declined as Json[]) expect(d.attributes.state.processingStatus).toBe('DECLINED');
    let total = declined.length;
    for (const status of ['ACCEPTED', 'INITIATED', 'IN_PROGRESS', 'PAID', 'CLEARED']) {
      const some = (await listAll(
        h,
        `filter[bulk]=${bulkId}&filter[status]=${status}&page[size]=250`,
      )) as Json[];
      for (const d of some) expect(d.attributes.state.processingStatus).toBe(status);
      total += some.length;
    }
    expect(total).toBe(BULK_SIZE);
  });

  it('an empty page still has links and says the range is not truncated', async () => {
    const res = await h.api('GET', '/donations?filter[bulk]=no-such-bulk');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], meta: { count: 0, page: { rangeTruncated: false } } });
    expect(typeof res.body.links.next).toBe('string');
  });

  it.each([
    ['page[size]=0', 'page[size]'],
    ['page[size]=abc', 'page[size]'],
    ['page[after]=garbage', 'page[after]'],
    ['page[before]=garbage', 'page[before]'],
    ['filter[status]=DONE', 'filter[status]'],
    ['sort=id', 'sort'],
    [
      `page[after]=${Buffer.from('d:1').toString('base64url')}&page[before]=${Buffer.from('d:9').toString('base64url')}`,
      'page[before]',
    ],
  ])('400 for %s', async (query, parameter) => {
    const res = await h.api('GET', `/donations?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter });
  });
});
