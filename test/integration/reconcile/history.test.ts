/*
 * A refresh against the emulator, as the month report and `donations` run it: every page of every
 * upload stored as it comes (the next page asked for meanwhile), each donation tied to its row (an
 * upload's rows read from the ledger only when its donations are matched), every state change kept.
 * What is stored is checked against the service's own answers, read here apart from the app's code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationView } from '../../../shared/contract/reconcileChannels';
import { openDesk, startSandbox, uploadGifts, type Desk, type GiftRow, type Sandbox } from './harness';

let s: Sandbox;
let desk: Desk;
let byReference: string;
let byContent: string;

const MONTH = new Date().toISOString().slice(0, 7);

function gifts(n: number): GiftRow[] {
  return Array.from({ length: n }, (_, i) => ({
    recipient: s.good[i % s.good.length] as string,
    amount: `${10 + (i % 40)}.${String(i % 100).padStart(2, '0')}`,
    currency: i % 5 === 0 ? 'EUR' : 'USD',
  }));
}

/** Every donation of a bulk as the service answers now, page by page, through its HTTP API. */
async function serviceStates(bulkId: string): Promise<Map<string, string>> {
  const token = await fetch(s.emu.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: s.emu.clientId,
      client_secret: s.emu.clientSecret,
    }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const states = new Map<string, string>();
  let url: string | null = `${s.emu.apiBaseUrl}/donations?filter[bulk]=${bulkId}&page[size]=250`;
  while (url) {
    const body = (await fetch(url, { headers: { authorization: `Bearer ${token.access_token}` } }).then((r) =>
      r.json(),
    )) as {
      data: Array<{ id: string; attributes: { state: { processingStatus: string } } }>;
      meta: { page: { rangeTruncated: boolean } };
      links: { next: string };
    };
    for (const d of body.data) states.set(d.id, d.attributes.state.processingStatus);
    url = body.meta.page.rangeTruncated ? body.links.next : null;
  }
  return states;
}

/** What the app stored, every donation, through the screen's pages. */
async function stored(): Promise<DonationView[]> {
  const out: DonationView[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await desk.call('donations.page', { offset, limit: 100 });
    out.push(...page.donations);
    if (out.length >= page.total) return out;
  }
}

beforeAll(async () => {
  s = await startSandbox();
  desk = await openDesk(s);
  byReference = await uploadGifts(s, desk, gifts(130), 1);
  // Without the reference pair: tied to its rows by content (the upload's fingerprints).
  byContent = await uploadGifts(s, desk, gifts(70), 1001, { reference: false });
}, 120_000);

afterAll(async () => {
  await desk?.runtime.close();
  await s?.close();
});

describe('a refresh of the uploads’ history', () => {
  it('stores every donation of every upload, read in small pages, each tied to its own row', async () => {
    const refreshed = await desk.call('donations.refresh', { pageSize: 7, limit: 0 });
    expect(refreshed.donations).toEqual([]);
    expect(refreshed.total).toBe(200);
    expect(refreshed.pages).toBe(Math.ceil(130 / 7) + Math.ceil(70 / 7));
    const service = new Map([...(await serviceStates(byReference)), ...(await serviceStates(byContent))]);
    const donations = await stored();
    expect(donations).toHaveLength(200);
    expect(new Map(donations.map((d) => [d.id, d.state]))).toEqual(service);
    for (const d of donations) {
      const key = d.row?.rowKey as number;
      expect(d.row).toMatchObject({
        method: d.bulkId === byReference ? 'reference' : 'fingerprint',
        rowNumber: key + 1,
      });
      expect(d.bulkId === byReference ? key >= 1 && key <= 130 : key >= 1001 && key <= 1070).toBe(true);
    }
    // One row each: no row was handed to two donations.
    expect(new Set(donations.map((d) => `${d.row?.workspaceId}:${d.row?.rowKey}`)).size).toBe(200);
  }, 60_000);

  it('keeps every state change the month report’s refresh sees, and reports what it stored', async () => {
    const before = new Map((await stored()).map((d) => [d.id, d.history.length]));
    await s.emu.advance(10 * 3600);
    const report = await desk.call('donations.report', { month: MONTH, refresh: true });
    const service = new Map([...(await serviceStates(byReference)), ...(await serviceStates(byContent))]);
    const donations = await stored();
    expect(new Map(donations.map((d) => [d.id, d.state]))).toEqual(service);
    for (const d of donations) {
      // Ten hours on, every donation has moved on (paid, cleared or declined): a new state each.
      expect(d.history.length).toBeGreaterThan(before.get(d.id) as number);
      expect(d.history.at(-1)?.state).toBe(d.state);
    }
    const cleared = donations.filter((d) => d.state === 'CLEARED').length;
    expect(report.lines.reduce((n, l) => n + l.cleared.count, 0)).toBe(cleared);
    expect(report.lines.reduce((n, l) => n + l.submitted.count, 0)).toBe(200);
    const cached = await desk.call('donations.report', { month: MONTH });
    expect({ ...cached, generatedAt: null }).toEqual({ ...report, generatedAt: null });
  }, 60_000);
});
