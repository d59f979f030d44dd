import { UPLOAD_HELD_WORDS } from '../../shared/service-calendar';
import { DeskFailure } from '../../shared/result';
import type { DeskRuntime } from '../services';

/** The hold in force as a failure (exit code 5), or null when the service is not in maintenance. */
export function maintenanceHold(desk: DeskRuntime): DeskFailure | null {
  const state = desk.environments.maintenance.current();
  return state ? new DeskFailure('MAINTENANCE', state.message, { until: state.until }) : null;
}

export function isMaintenance(e: unknown): boolean {
  return e instanceof DeskFailure && e.code === 'MAINTENANCE';
}

/** What a command says when the service's maintenance stops it: until when, and that nothing is lost. */
export function maintenanceWords(e: DeskFailure, what: 'upload' | 'refresh'): string {
  return what === 'upload'
    ? `${e.message} ${UPLOAD_HELD_WORDS} Run donation-desk resume --wait after that time (or leave the app open).`
    : `${e.message} Nothing is lost: run the command again after that time to read the donations.`;
}
