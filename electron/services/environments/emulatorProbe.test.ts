import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { advanceEmulatorClock, emulatorClockAt, isLoopbackAddress } from './emulatorProbe';

/*
 * Telling the emulator on this computer from a real service: only an address on this computer is
 * asked at all, and only an answer with the emulator's mark and its clock's shape counts.
 */

let emu: RunningEmulator;
let lookalike: Server;
let lookalikeUrl: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 0, quiet: true });
  // A service on this computer that answers the same path with the same shape, but without the mark.
  lookalike = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ now: new Date().toISOString(), timeScale: 1 }));
  });
  await new Promise<void>((r) => lookalike.listen(0, '127.0.0.1', r));
  lookalikeUrl = `http://127.0.0.1:${(lookalike.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await emu?.close();
  await new Promise((r) => lookalike?.close(r));
});

describe('the emulator on this computer', () => {
  it('is recognised at its address, and its clock read and moved', async () => {
    const clock = await emulatorClockAt(emu.apiBaseUrl);
    expect(clock).toMatchObject({ timeScale: 0 });
    const before = emu.now().getTime();
    const moved = await advanceEmulatorClock(emu.apiBaseUrl, 600);
    expect(Date.parse(moved!.now) - before).toBe(600_000);
  });

  it('is not a service on this computer without the emulator’s mark', async () => {
    expect(await emulatorClockAt(lookalikeUrl)).toBeNull();
    expect(await advanceEmulatorClock(lookalikeUrl, 600)).toBeNull();
  });

  it('never asks a service elsewhere', async () => {
    const asked: string[] = [];
    const spy = (async (url: string) => {
      asked.push(url);
      return new Response('{}');
    }) as unknown as typeof fetch;
    expect(await emulatorClockAt('https://api.giving.example.com', spy)).toBeNull();
    expect(await emulatorClockAt('http://10.0.0.5:4010', spy)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('knows which addresses are this computer', () => {
    expect(isLoopbackAddress('http://127.0.0.1:4010')).toBe(true);
    expect(isLoopbackAddress('http://localhost:4010/v1')).toBe(true);
    expect(isLoopbackAddress('http://[::1]:4010')).toBe(true);
    expect(isLoopbackAddress('https://localhost.example.com')).toBe(false);
    expect(isLoopbackAddress('not an address')).toBe(false);
  });
});
