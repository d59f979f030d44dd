import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { startDesk, type DeskRuntime } from '../../../electron/services';
import {
  dispatch,
  type ChannelInput,
  type ChannelName,
  type ChannelResponse,
} from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';

export interface Emu {
  emu: RunningEmulator;
  dataDir: string;
  control(path: string, body?: unknown): Promise<unknown>;
  faults(patch: Record<string, unknown>): Promise<void>;
  recipients: string[];
  close(): Promise<void>;
}

export async function startEmu(timeScale = 1): Promise<Emu> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dd-upload-'));
  const emu = await startEmulator({ port: 0, uploadPort: 0, timeScale, quiet: true });
  const control = async (path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emu.apiBaseUrl}/_emulator/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const info = (await control('info')) as { samples: { causesInGoodStanding: Array<{ id: string }> } };
  return {
    emu,
    dataDir,
    control,
    faults: async (patch) => {
      await control('faults', patch);
    },
    recipients: info.samples.causesInGoodStanding.map((c) => c.id),
    close: async () => {
      await emu.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The donations the emulator holds for one bulk (every page). */
export async function bulkDonations(
  emu: RunningEmulator,
  bulkId: string,
): Promise<Array<{ attributes: { metadata?: Record<string, string> } }>> {
  const token = await getToken(emu);
  const out: Array<{ attributes: { metadata?: Record<string, string> } }> = [];
  let url: string | null = `${emu.apiBaseUrl}/donations?filter[bulk]=${bulkId}&page[size]=250`;
  while (url) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`list ${res.status}`);
    const body = (await res.json()) as {
      data: Array<{ attributes: { metadata?: Record<string, string> } }>;
      links?: { next?: string | null };
      meta: { page?: { rangeTruncated?: boolean } };
    };
    out.push(...body.data);
    url = body.meta.page?.rangeTruncated && body.links?.next ? body.links.next : null;
  }
  return out;
}

export async function getToken(emu: RunningEmulator): Promise<string> {
  const res = await fetch(emu.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${emu.clientId}&client_secret=${emu.clientSecret}`,
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

export const HEADERS = ['Charity ID', 'Amount', 'Currency', 'Employee'];
export const MAPPING = {
  template: {
    columns: {
      'Charity ID': 'recipientId',
      Amount: 'amount',
      Currency: 'currencyCode',
      Employee: 'metadata.employee',
    },
    amountUnit: 'major',
  },
  numberStyle: 'dot-decimal',
  reference: { enabled: true, key: 'ddRef' },
};

export function makeRows(
  recipients: string[],
  count: number,
  first = 1,
): Array<{ key: number; rowNumber: number; cells: string[] }> {
  return Array.from({ length: count }, (_, i) => ({
    key: first + i,
    rowNumber: first + i + 1,
    cells: [
      recipients[i % recipients.length] as string,
      `${10 + (i % 50)}.${String(i % 100).padStart(2, '0')}`,
      'USD',
      `E${first + i}`,
    ],
  }));
}

export interface Desk {
  desk: DeskRuntime;
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelResponse<C>>;
}

/** A desk on the test's emulator (in-process, as the Offline sandbox), which survives the desk's close. */
export async function openDesk(
  h: Emu,
  options: {
    fetchImpl?: typeof fetch;
    env?: Record<string, string>;
    notify?: (title: string, body: string) => void;
  } = {},
): Promise<Desk> {
  const desk = await startDesk(
    {
      mode: 'cli',
      dataDir: h.dataDir,
      appVersion: 'test',
      assetsDir: h.dataDir,
      secretBox: null,
      openExternal: async () => undefined,
      ...(options.notify ? { notify: options.notify } : {}),
      env: { DONATION_DESK_POLL_MIN_MS: '50', DONATION_DESK_POLL_MAX_MS: '200', ...options.env },
    },
    {
      startOffline: async () => ({ ...h.emu, close: async () => undefined }),
      ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    },
  );
  return {
    desk,
    // Through dispatch, as the renderer's calls go: input and output are checked against the contract.
    call: async (channel, input) => {
      const result = await dispatch(desk.services, channel, input, { transport: 'test' }, (_c, e) => {
        throw e instanceof Error ? e : new Error(JSON.stringify(e));
      });
      if (!result.ok) throw new DeskFailure(result.error.code, result.error.message, result.error.details);
      return result.value as ChannelResponse<typeof channel>;
    },
  };
}

export async function createWorkspace(
  desk: Desk,
  rows: ReturnType<typeof makeRows>,
  mapping: unknown = MAPPING,
): Promise<string> {
  const meta = await desk.desk.workspaces.create({
    name: 'Test gifts',
    source: {
      fileName: 'gifts.xlsx',
      format: 'xlsx',
      sheet: 'Sheet1',
      headerRow: 1,
      headerRowCount: 1,
      totalsRow: null,
      skippedBlankRows: 0,
      warnings: [],
    },
    headers: HEADERS,
    rows,
    mapping: mapping as Record<string, unknown>,
  });
  return meta.id;
}

/** Advances the emulator's clock in steps and polls until the intent is final. */
export async function driveToEnd(
  h: Emu,
  desk: Desk,
  intentId: string,
  maxSteps = 20,
): Promise<ChannelResponse<'upload.get'>> {
  for (let i = 0; i < maxSteps; i++) {
    // Under injected faults a refresh may fail after its retries; following goes on regardless.
    const view = await desk
      .call('upload.refresh', { intentId })
      .catch(() => desk.call('upload.get', { intentId }));
    if ((view.state === 'PROCESSED' || view.state === 'ERROR') && view.donations !== null) return view;
    await h.emu.advance(120);
  }
  return desk.call('upload.get', { intentId });
}

export async function expectFailure(promise: Promise<unknown>): Promise<DeskFailure> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof DeskFailure) return e;
    throw e;
  }
  throw new Error('expected a DeskFailure');
}
