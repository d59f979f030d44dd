import type { SandboxClock, Services } from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import type { Environments } from './environments';
import type { SettingsService } from '../settings/settingsService';

type SandboxHandlers = Pick<Services, 'sandbox.clock' | 'sandbox.advanceClock'>;

/**
 * The Offline sandbox's clock from the app: read it, and move it forward so a person can watch
 * donations reach CLEARED or DECLINED without waiting. Refused unless the Offline sandbox is the
 * environment in force, so nothing here can reach Sandbox or Production.
 */
export function sandboxClockHandlers(settings: SettingsService, environments: Environments): SandboxHandlers {
  async function offline() {
    if (settings.environment() !== 'offline') {
      throw new DeskFailure(
        'NOT_OFFLINE',
        'Only the Offline sandbox’s clock can be moved: the app is working with another environment. Choose Offline sandbox in Settings and Save to practise.',
      );
    }
    return environments.offlineService();
  }
  const read = (emulator: Awaited<ReturnType<typeof offline>>): SandboxClock => ({
    now: emulator.now().toISOString(),
    timeScale: emulator.timeScale,
  });
  return {
    'sandbox.clock': async () => read(await offline()),
    'sandbox.advanceClock': async ({ seconds }) => {
      const emulator = await offline();
      await emulator.advance(seconds);
      return read(emulator);
    },
  };
}
