import type { EnvironmentInfo } from '../../../shared/contract';
import type { MaintenanceWatch } from './maintenanceWatch';
import type { TokenClient } from './tokenClient';

/**
 * Everything the client needs to talk to the environment in force: addresses and credentials.
 * Defined here, beside the client that uses it, and made by environments/ (which sits above api/).
 */
export interface ResolvedEnvironment {
  info: EnvironmentInfo;
  tokens: TokenClient;
  /** The service's maintenance as this desk knows it: answers that mean it hold instead of failing. */
  maintenance?: MaintenanceWatch;
}
