import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { startDesk, type DeskRuntime } from '../../../electron/services';
import {
  dispatch,
  type ChannelName,
  type ChannelRequest,
  type ChannelResponse,
} from '../../../shared/contract';
import type { Result } from '../../../shared/result';

export interface DeskHarness {
  emu: RunningEmulator;
  desk: DeskRuntime;
  dataDir: string;
  /** Calls a channel through dispatch (input and output parsed as over IPC); throws on an error result. */
  call<C extends ChannelName>(channel: C, input: ChannelRequest<C>): Promise<ChannelResponse<C>>;
  attempt<C extends ChannelName>(channel: C, input: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>>;
  /** A raw, authorised request to the emulator (for checks the app itself never makes). */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  control(path: string, body?: unknown): Promise<unknown>;
  /** A fresh desk on the same data folder, as after a restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startDeskHarness(): Promise<DeskHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dd-locations-'));
  const emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 0, quiet: true });
  const open = () =>
    startDesk(
      {
        mode: 'cli',
        dataDir,
        appVersion: 'test',
        assetsDir: dataDir,
        secretBox: null,
        openExternal: async () => undefined,
        env: {},
      },
      { startOffline: async () => ({ ...emu, close: async () => undefined }) },
    );
  let desk = await open();
  let token = '';
  const raw = async (method: string, path: string, body?: unknown) => {
    if (!token) {
      const res = await fetch(emu.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${emu.clientId}&client_secret=${emu.clientSecret}`,
      });
      token = ((await res.json()) as { access_token: string }).access_token;
    }
    const res = await fetch(`${emu.apiBaseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  const attempt = async <C extends ChannelName>(channel: C, input: ChannelRequest<C>) =>
    (await dispatch(desk.services, channel, input, { transport: 'test' })) as Result<ChannelResponse<C>>;
  return {
    emu,
    get desk() {
      return desk;
    },
    dataDir,
    attempt,
    call: async (channel, input) => {
      const result = await attempt(channel, input);
      if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
      return result.value;
    },
    raw,
    control: async (path, body) => {
      const res = await fetch(`${emu.apiBaseUrl}/_emulator/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return res.json();
    },
    restart: async () => {
      await desk.close();
      desk = await open();
    },
    close: async () => {
      await desk.close();
      await emu.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
