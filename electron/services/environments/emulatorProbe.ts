import type { SandboxClock } from '../../../shared/contract';

/*
 * Whether the service Custom points at is the giving-service emulator on this computer (`npm run
 * emulator`, which two people trying team mode on one machine share), so the app may offer its
 * clock. A real service is never taken for it: only an address on this computer is asked at all
 * (127.0.0.1, localhost, ::1), the one request is a harmless GET of the emulator's own clock, and the
 * answer must carry the emulator's mark (a header only the emulator sends) and its clock's exact
 * shape. Nothing is sent with it: no token, no credentials.
 */

/** The header the emulator's control answers carry (emulator/controls.ts). */
export const EMULATOR_HEADER = 'x-giving-service-emulator';
const EMULATOR_MARK = 'donation-desk';

/** Whether the address names this computer. */
export function isLoopbackAddress(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function clockAddress(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/_emulator/clock`;
}

async function readClock(response: Response): Promise<SandboxClock | null> {
  if (!response.ok || response.headers.get(EMULATOR_HEADER) !== EMULATOR_MARK) return null;
  const body = (await response.json().catch(() => null)) as { now?: unknown; timeScale?: unknown } | null;
  if (
    !body ||
    typeof body.now !== 'string' ||
    Number.isNaN(Date.parse(body.now)) ||
    typeof body.timeScale !== 'number' ||
    body.timeScale < 0
  ) {
    return null;
  }
  return { now: body.now, timeScale: body.timeScale };
}

/** The emulator's clock at `baseUrl`, or null when the service there is not the emulator on this computer. */
export async function emulatorClockAt(
  baseUrl: string,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 2_000,
): Promise<SandboxClock | null> {
  if (!isLoopbackAddress(baseUrl)) return null;
  try {
    const response = await fetchImpl(clockAddress(baseUrl), {
      method: 'GET',
      redirect: 'error',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return await readClock(response);
  } catch {
    return null;
  }
}

/** Moves the emulator's clock at `baseUrl` forward (after emulatorClockAt said it is one). */
export async function advanceEmulatorClock(
  baseUrl: string,
  seconds: number,
  fetchImpl: typeof fetch = fetch,
): Promise<SandboxClock | null> {
  if (!isLoopbackAddress(baseUrl)) return null;
  try {
    const response = await fetchImpl(clockAddress(baseUrl), {
      method: 'POST',
      redirect: 'error',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: seconds }),
      signal: AbortSignal.timeout(5_000),
    });
    return await readClock(response);
  } catch {
    return null;
  }
}
