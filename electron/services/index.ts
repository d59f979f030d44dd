import type { Services } from '../../shared/contract';
import { EventBus } from './eventBus';
import type { PlatformAdapter } from './platform';

export interface DeskRuntime {
  services: Services;
  events: EventBus;
  /** Stops timers, pollers and the in-process emulator. */
  close(): Promise<void>;
}

export interface DeskOptions {
  /** Overrides from the command line (CLI, bridge): environment and addresses. */
  overrides?: { environment?: string; baseUrl?: string; tokenUrl?: string };
}

export { EventBus };
export type { PlatformAdapter };

// Placeholder replaced by the real composition root in the next commit.
export async function startDesk(_platform: PlatformAdapter, _options: DeskOptions = {}): Promise<DeskRuntime> {
  throw new Error('not yet composed');
}
