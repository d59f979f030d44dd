import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import {
  dispatch,
  type ChannelName,
  type ChannelRequest,
  type ChannelResponse,
} from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import { startDesk, type DeskRuntime } from '..';

let emulator: RunningEmulator;
let runtime: DeskRuntime;
let dataDir: string;

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'desk-connection-')), 'data');
  emulator = await startEmulator({ timeScale: 0, quiet: true });
  runtime = await startDesk(
    {
      mode: 'browser',
      dataDir,
      appVersion: '9.9.9',
      assetsDir: dataDir,
      secretBox: null,
      openExternal: async () => undefined,
      env: {},
    },
    { startOffline: async () => emulator },
  );
});

afterAll(async () => {
  await runtime.close();
  await emulator.close();
});

/** A call as the renderer makes it: through dispatch, so the contract's schemas apply. */
const call = async <C extends ChannelName>(channel: C, input: ChannelRequest<C>) =>
  (await dispatch(runtime.services, channel, input, { transport: 'test' })) as Result<ChannelResponse<C>>;

/** What is typed in Settings for Production: the emulator's addresses and credentials, not saved. */
const typedProduction = () => ({
  addresses: { baseUrl: emulator.apiBaseUrl, tokenUrl: emulator.tokenUrl, programDomain: '' },
  clientId: emulator.clientId,
  clientSecret: emulator.clientSecret,
});

async function settingsOnDisk(): Promise<string> {
  return readFile(join(dataDir, 'settings.json'), 'utf8').catch(() => '');
}

describe('settings.testConnection', () => {
  it('tests what is typed for another environment without saving it or switching to it', async () => {
    const before = await settingsOnDisk();
    const result = await call('settings.testConnection', {
      environment: 'production',
      remote: typedProduction(),
    });
    expect(result).toMatchObject({ ok: true, value: { ok: true, environment: 'production' } });
    expect(result.ok && result.value.message).toMatch(
      /Connected to Production.*Nothing was changed: press Save/,
    );
    const settings = await call('settings.get', {});
    expect(settings.ok && settings.value.environment).toBe('offline');
    expect(settings.ok && settings.value.remotes.production.addresses.baseUrl).toBe('');
    expect(await settingsOnDisk()).toBe(before);
    const info = await call('app.info', {});
    expect(info.ok && info.value.environment.id).toBe('offline');
  });

  it('says which field is missing when what is typed is incomplete, and still saves nothing', async () => {
    const result = await call('settings.testConnection', {
      environment: 'sandbox',
      remote: { ...typedProduction(), clientSecret: '' },
    });
    expect(result).toMatchObject({ ok: true, value: { ok: false } });
    expect(result.ok && result.value.message).toMatch(/enter the client secret in Settings/);
    const settings = await call('settings.get', {});
    expect(settings.ok && settings.value.environment).toBe('offline');
  });

  it('reports a refused secret as a failed test', async () => {
    const result = await call('settings.testConnection', {
      environment: 'custom',
      remote: { ...typedProduction(), clientSecret: 'wrong' },
    });
    expect(result).toMatchObject({ ok: true, value: { ok: false, environment: 'custom' } });
  });
});

describe('the Offline sandbox clock from the app', () => {
  it('shows the sandbox speed in the environment description', async () => {
    const info = await call('app.info', {});
    expect(info.ok && info.value.environment).toMatchObject({ id: 'offline', emulated: true, timeScale: 0 });
  });

  it('moves the sandbox clock forward', async () => {
    const before = emulator.now().getTime();
    const result = await call('sandbox.advanceClock', { seconds: 3600 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Date.parse(result.value.now) - before).toBe(3600_000);
    expect(emulator.now().getTime() - before).toBe(3600_000);
    const clock = await call('sandbox.clock', {});
    expect(clock.ok && clock.value).toEqual({ now: result.value.now, timeScale: 0 });
  });

  it('refuses moves backwards or beyond a week', async () => {
    expect((await call('sandbox.advanceClock', { seconds: -60 })).ok).toBe(false);
    expect((await call('sandbox.advanceClock', { seconds: 8 * 86_400 })).ok).toBe(false);
  });

  it('is refused, and the clock untouched, once another environment is saved', async () => {
    const saved = await call('settings.save', {
      environment: 'production',
      remote: { id: 'production', ...typedProduction() },
    });
    expect(saved.ok).toBe(true);
    const before = emulator.now().getTime();
    const result = await call('sandbox.advanceClock', { seconds: 3600 });
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_OFFLINE' } });
    expect(!result.ok && result.error.message).toMatch(/Choose Offline sandbox in Settings/);
    expect((await call('sandbox.clock', {})).ok).toBe(false);
    expect(emulator.now().getTime()).toBe(before);
    await call('settings.save', { environment: 'offline' });
  });
});

describe('Custom on the emulator on this computer (team mode tried on one machine)', () => {
  const customOnEmulator = (programDomain: string) => ({
    environment: 'custom' as const,
    remote: {
      id: 'custom' as const,
      addresses: { baseUrl: emulator.apiBaseUrl, tokenUrl: emulator.tokenUrl, programDomain },
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
    },
  });

  it('saves a program domain on this computer, with its port', async () => {
    const port = new URL(emulator.apiBaseUrl).port;
    for (const programDomain of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const saved = await call('settings.save', customOnEmulator(programDomain));
      expect(saved.ok, JSON.stringify(saved)).toBe(true);
      const info = await call('app.info', {});
      expect(info.ok && info.value.environment.programUrl).toBe(`http://${programDomain}`);
    }
    await call('settings.save', { environment: 'offline' });
  });

  it('offers the sandbox clock there, and moves the emulator’s clock', async () => {
    const port = new URL(emulator.apiBaseUrl).port;
    expect((await call('settings.save', customOnEmulator(`127.0.0.1:${port}`))).ok).toBe(true);
    const before = emulator.now().getTime();
    const moved = await call('sandbox.advanceClock', { seconds: 600 });
    expect(moved.ok, JSON.stringify(moved)).toBe(true);
    expect(emulator.now().getTime() - before).toBe(600_000);
    expect((await call('sandbox.clock', {})).ok).toBe(true);
    await call('settings.save', { environment: 'offline' });
  });
});
