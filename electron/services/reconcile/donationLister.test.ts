import { describe, expect, it } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import type { ServiceClient } from '../api/serviceClient';
import { listDonations } from './donationLister';

const donation = (id: string, state = 'ACCEPTED') =>
  ({ id, attributes: { state: { processingStatus: state } } }) as unknown as DonationResource;

/**
 * A service that answers from a script of pages, one per request, each naming the next cursor (or
 * none at the end); the requests are kept.
 */
function service(pages: Array<{ ids: string[]; next: string | null }>) {
  const requests: Array<{ first: Record<string, string> } | { next: string }> = [];
  const client = {
    donationPage: async (request: (typeof requests)[number]) => {
      requests.push(request);
      const page = pages[requests.length - 1];
      if (!page) throw new Error('asked for a page after the last');
      return { page: { data: page.ids.map((id) => donation(id)) }, next: page.next };
    },
  } as unknown as ServiceClient;
  return { client, requests };
}

describe('listDonations', () => {
  it('keeps nothing but the ids when told not to keep the donations, and counts the same', async () => {
    const { client } = service([
      { ids: ['a', 'b', 'c'], next: '/donations?page[after]=c' },
      { ids: ['c', 'd'], next: null },
    ]);
    const seen: number[] = [];
    const result = await listDonations(
      client,
      { pageSize: 3 },
      { keep: false, onPage: (_page, distinct) => void seen.push(distinct) },
    );
    expect(seen).toEqual([3, 4]);
    expect(result).toEqual({ donations: [], pages: 2 });
  });

  it('keeps not even the ids when the count is not wanted, and hands every page over the same', async () => {
    const { client } = service([
      { ids: ['a', 'b', 'c'], next: '/donations?page[after]=c' },
      { ids: ['c', 'd'], next: null },
    ]);
    const seen: Array<[string[], number]> = [];
    const result = await listDonations(
      client,
      { pageSize: 3 },
      {
        keep: false,
        distinct: false,
        onPage: (page, handed) => void seen.push([page.map((d) => d.id), handed]),
      },
    );
    expect(seen).toEqual([
      [['a', 'b', 'c'], 3],
      [['c', 'd'], 5],
    ]);
    expect(result).toEqual({ donations: [], pages: 2 });
  });

  it('follows every cursor, whatever size each page comes in, and counts an id seen twice once', async () => {
    const { client, requests } = service([
      { ids: ['a', 'b', 'c'], next: '/donations?page[after]=c' },
      // A short page (the service may send fewer than asked) that repeats the last one's boundary.
      { ids: ['c', 'd'], next: '/donations?page[after]=d' },
      { ids: [], next: '/donations?page[after]=d2' },
      { ids: ['e'], next: null },
    ]);
    const seen: Array<[number, number]> = [];
    const result = await listDonations(
      client,
      { bulkId: 'bulk-1', status: 'DECLINED', pageSize: 3 },
      { onPage: (page, distinct) => void seen.push([page.length, distinct]) },
    );
    expect(result.donations.map((d) => d.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result.pages).toBe(4);
    expect(seen).toEqual([
      [3, 3],
      [2, 4],
      [0, 4],
      [1, 5],
    ]);
    expect(requests[0]).toEqual({
      first: { 'page[size]': '3', 'filter[bulk]': 'bulk-1', 'filter[status]': 'DECLINED' },
    });
    expect(requests.slice(1)).toEqual([
      { next: '/donations?page[after]=c' },
      { next: '/donations?page[after]=d' },
      { next: '/donations?page[after]=d2' },
    ]);
  });

  it('keeps the latest answer for an id that comes back on a later page', async () => {
    const { client } = service([
      { ids: ['a'], next: '/n1' },
      { ids: ['a'], next: null },
    ]);
    let calls = 0;
    const later = {
      donationPage: async (request: { first: Record<string, string> } | { next: string }) => {
        const answer = await client.donationPage(request);
        calls++;
        return calls === 2
          ? { ...answer, page: { data: [donation('a', 'DECLINED')] } }
          : { ...answer, page: { data: [donation('a', 'ACCEPTED')] } };
      },
    } as unknown as ServiceClient;
    const result = await listDonations(later, { pageSize: 1 });
    expect(result.donations).toHaveLength(1);
    expect(result.donations[0]?.attributes.state.processingStatus).toBe('DECLINED');
  });

  it('refuses a cursor that leads back to a page already read, rather than looping', async () => {
    const { client } = service([
      { ids: ['a'], next: '/n1' },
      { ids: ['b'], next: '/n2' },
      { ids: ['c'], next: '/n1' },
    ]);
    await expect(listDonations(client, { pageSize: 1 })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('stops between pages when cancelled, after handing over what it read', async () => {
    const { client, requests } = service([
      { ids: ['a'], next: '/n1' },
      { ids: ['b'], next: '/n2' },
      { ids: ['c'], next: null },
    ]);
    const controller = new AbortController();
    const handed: string[] = [];
    await expect(
      listDonations(
        client,
        { pageSize: 1 },
        {
          signal: controller.signal,
          onPage: (page) => {
            handed.push(...page.map((d) => d.id));
            if (handed.length === 2) controller.abort();
          },
        },
      ),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(handed).toEqual(['a', 'b']);
    // The third page was asked for while the second was handed over (read ahead), then dropped.
    expect(requests).toHaveLength(3);
  });

  it('asks for the next page while one is handed over, never more than one ahead', async () => {
    const { client, requests } = service([
      { ids: ['a'], next: '/n1' },
      { ids: ['b'], next: '/n2' },
      { ids: ['c'], next: '/n3' },
      { ids: ['d'], next: null },
    ]);
    const asked: number[] = [];
    const { pages } = await listDonations(
      client,
      { pageSize: 1 },
      {
        keep: false,
        onPage: async () => {
          // However long a page takes to store, no more pages are asked for meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 5));
          asked.push(requests.length);
        },
      },
    );
    expect(pages).toBe(4);
    expect(asked).toEqual([2, 3, 4, 4]);
    expect(requests).toEqual([
      { first: { 'page[size]': '1' } },
      { next: '/n1' },
      { next: '/n2' },
      { next: '/n3' },
    ]);
  });

  it('leaves no request behind when storing a page fails', async () => {
    const { client, requests } = service([
      { ids: ['a'], next: '/n1' },
      { ids: ['b'], next: null },
    ]);
    await expect(
      listDonations(client, { pageSize: 1 }, { onPage: () => Promise.reject(new Error('disk full')) }),
    ).rejects.toThrow('disk full');
    expect(requests).toHaveLength(2);
  });
});
