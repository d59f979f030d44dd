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
  type EventName,
} from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';

export interface Sandbox {
  emu: RunningEmulator;
  dataDir: string;
  good: string[];
  notInGoodStanding: string[];
  unknownCause: string;
  close(): Promise<void>;
}

/** The emulator with its clock frozen: the test moves it, so every state can be watched in turn. */
export async function startSandbox(): Promise<Sandbox> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dd-reconcile-'));
  const emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 0, quiet: true });
  const res = await fetch(`${emu.apiBaseUrl}/_emulator/info`);
  const info = (await res.json()) as {
    samples: {
      causesInGoodStanding: Array<{ id: string }>;
      causesNotInGoodStanding: string[];
      unknownCause: string;
    };
  };
  return {
    emu,
    dataDir,
    good: info.samples.causesInGoodStanding.map((c) => c.id),
    notInGoodStanding: info.samples.causesNotInGoodStanding,
    unknownCause: info.samples.unknownCause,
    close: async () => {
      await emu.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Desk {
  runtime: DeskRuntime;
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelResponse<C>>;
}

/**
 * A desk on the sandbox's emulator: as the Offline sandbox by default, or with `custom` as the custom
 * environment at the emulator's addresses (what the CLI uses with --base-url), in `dataDir`.
 */
export async function openDesk(
  s: Sandbox,
  options: { custom?: boolean; dataDir?: string; env?: Record<string, string> } = {},
): Promise<Desk> {
  const runtime = await startDesk(
    {
      mode: 'cli',
      dataDir: options.dataDir ?? s.dataDir,
      appVersion: 'test',
      assetsDir: s.dataDir,
      secretBox: null,
      openExternal: async () => undefined,
      env: {
        DONATION_DESK_POLL_MIN_MS: '50',
        DONATION_DESK_POLL_MAX_MS: '200',
        DONATION_DESK_CLIENT_ID: s.emu.clientId,
        DONATION_DESK_CLIENT_SECRET: s.emu.clientSecret,
        ...options.env,
      },
    },
    {
      startOffline: async () => ({ ...s.emu, close: async () => undefined }),
      ...(options.custom ? { overrides: { baseUrl: s.emu.apiBaseUrl, tokenUrl: s.emu.tokenUrl } } : {}),
    },
  );
  return deskOf(runtime);
}

/** A started desk called through dispatch, as the renderer calls: both sides checked against the contract. */
export function deskOf(runtime: DeskRuntime): Desk {
  return {
    runtime,
    call: async (channel, input) => {
      const result = await dispatch(runtime.services, channel, input, { transport: 'test' }, (_c, e) => {
        throw e instanceof Error ? e : new Error(JSON.stringify(e));
      });
      if (!result.ok) throw new DeskFailure(result.error.code, result.error.message, result.error.details);
      return result.value as ChannelResponse<typeof channel>;
    },
  };
}

/** Every event the desk sends to its windows, in order. */
export type Heard = Array<{ name: EventName; payload: unknown }>;

/** The same, also keeping every event it sends to its windows. */
export function listeningDeskOf(runtime: DeskRuntime): Desk & { heard: Heard } {
  const heard: Heard = [];
  runtime.events.subscribe((name, payload) => heard.push({ name, payload }));
  return { ...deskOf(runtime), heard };
}

export const HEADERS = ['Charity ID', 'Amount', 'Currency', 'Employee'];
/** The mapping of HEADERS, with the reference pair on. */
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

export interface GiftRow {
  recipient: string;
  /** Major units as typed, e.g. "12.34". */
  amount: string;
  currency: string;
  /** The employee metadata value; default E<row key>. */
  employee?: string;
}

/** A workspace of these gifts (row keys from `firstKey`, HEADERS and MAPPING); returns its id. */
export async function giftsWorkspace(
  desk: Desk,
  gifts: GiftRow[],
  options: { name?: string; firstKey?: number; reference?: boolean } = {},
): Promise<string> {
  const name = options.name ?? 'Month gifts';
  const firstKey = options.firstKey ?? 1;
  const meta = await desk.runtime.workspaces.create({
    name,
    source: {
      fileName: `${name}.xlsx`,
      format: 'xlsx',
      sheet: 'Sheet1',
      headerRow: 1,
      headerRowCount: 1,
      totalsRow: null,
      skippedBlankRows: 0,
      warnings: [],
    },
    headers: HEADERS,
    rows: gifts.map((g, i) => ({
      key: firstKey + i,
      rowNumber: firstKey + i + 1,
      cells: [g.recipient, g.amount, g.currency, g.employee ?? `E${firstKey + i}`],
    })),
    mapping: {
      ...MAPPING,
      reference: { ...MAPPING.reference, enabled: options.reference ?? true },
    } as Record<string, unknown>,
  });
  return meta.id;
}

/** A workspace of these gifts, uploaded and followed until its bulk is PROCESSED; returns the bulk id. */
export async function uploadGifts(
  s: Sandbox,
  desk: Desk,
  gifts: GiftRow[],
  firstKey = 1,
  options: { reference?: boolean } = {},
): Promise<string> {
  const workspaceId = await giftsWorkspace(desk, gifts, { firstKey, ...options });
  const started = await desk.call('upload.start', { workspaceId });
  return followUpload(s, desk, started.uploadId);
}

/** Follows an intent until the service has said PROCESSED or ERROR and the ledger knows its rows. */
export async function driveToEnd(s: Sandbox, desk: Desk, intentId: string) {
  for (let step = 0; step < 40; step++) {
    const view = await desk.call('upload.refresh', { intentId });
    if ((view.state === 'PROCESSED' || view.state === 'ERROR') && view.donations !== null) return view;
    await s.emu.advance(60);
  }
  throw new Error('the intent did not end');
}

/** Follows an upload to PROCESSED with the service's clock advanced; returns its bulk id. */
export async function followUpload(s: Sandbox, desk: Desk, uploadId: string): Promise<string> {
  for (let step = 0; step < 30; step++) {
    const upload = (await desk.call('upload.list', {})).find((u) => u.uploadId === uploadId);
    const intent = upload?.intents.find((i) => i.state !== 'abandoned');
    if (intent) {
      const view = await desk.call('upload.refresh', { intentId: intent.intentId });
      if (view.state === 'PROCESSED' && view.donations !== null) return view.serviceId as string;
      if (view.state === 'ERROR') throw new Error(`upload ended in ERROR: ${JSON.stringify(view.error)}`);
    }
    await s.emu.advance(60);
  }
  throw new Error('upload did not finish');
}

/** Sets the emulator's injected faults (`{ error500Rate: 1 }`; `{ reset: true }` ends them). */
export async function serviceFaults(s: Sandbox, body: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${s.emu.apiBaseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`faults not set: ${r.status}`);
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
