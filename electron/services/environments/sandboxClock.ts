import type { SandboxClock, Services } from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import type { Environments } from './environments';
import type { SettingsService } from '../settings/settingsService';
import { advanceEmulatorClock, emulatorClockAt } from './emulatorProbe';

type SandboxHandlers = Pick<Services, 'sandbox.clock' | 'sandbox.advanceClock'>;

interface Clock {
  read(): Promise<SandboxClock>;
  advance(seconds: number): Promise<SandboxClock>;
}

/**
 * The sandbox's clock from the app: read it, and move it forward so a person can watch donations
 * reach CLEARED or DECLINED without waiting. Only for the Offline sandbox, or for Custom when the
 * service there is the emulator on this computer (emulatorProbe.ts: two people trying team mode on
 * one machine share it); refused otherwise, so nothing here can reach Sandbox, Production or any
 * real service.
 */
export function sandboxClockHandlers(
  settings: SettingsService,
  environments: Environments,
  fetchImpl: typeof fetch = fetch,
): SandboxHandlers {
  async function clock(): Promise<Clock> {
    const id = settings.environment();
    if (id === 'offline') {
      const emulator = await environments.offlineService();
      const read = (): SandboxClock => ({ now: emulator.now().toISOString(), timeScale: emulator.timeScale });
      return {
        read: async () => read(),
        advance: async (seconds) => {
          await emulator.advance(seconds);
          return read();
        },
      };
    }
    if (id === 'custom') {
      const { baseUrl } = await environments.describe('custom');
      if (await emulatorClockAt(baseUrl, fetchImpl)) {
        const orFail = (c: SandboxClock | null): SandboxClock => {
          if (c) return c;
          throw new DeskFailure(
            'NOT_OFFLINE',
            `The emulator at ${baseUrl} did not answer: check that it still runs (npm run emulator), then try again.`,
          );
        };
        return {
          read: async () => orFail(await emulatorClockAt(baseUrl, fetchImpl)),
          advance: async (seconds) => orFail(await advanceEmulatorClock(baseUrl, seconds, fetchImpl)),
        };
      }
      throw new DeskFailure(
        'NOT_OFFLINE',
        'The service in Custom is not the emulator on this computer, so its clock cannot be moved from here.',
      );
    }
    throw new DeskFailure(
      'NOT_OFFLINE',
      'Only the Offline sandbox’s clock can be moved: the app is working with another environment. Choose Offline sandbox in Settings and Save to practise.',
    );
  }
  return {
    'sandbox.clock': async () => (await clock()).read(),
    'sandbox.advanceClock': async ({ seconds }) => (await clock()).advance(seconds),
  };
}
