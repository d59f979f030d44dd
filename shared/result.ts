import type { DeskErrorCode } from './contract/errorCodes';

/** Errors cross process boundaries as values, never as thrown exceptions. */
export interface DeskError {
  /** Stable machine-readable code, one of `DESK_ERROR_CODES` (shared/contract/errorCodes.ts). */
  code: DeskErrorCode;
  /** One plain sentence a person can act on. Never contains secrets. */
  message: string;
  details?: unknown;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: DeskError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = (code: DeskErrorCode, message: string, details?: unknown): Result<never> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

/** An error a service throws on purpose: its code and message reach the person as they are. */
export class DeskFailure extends Error {
  constructor(
    readonly code: DeskErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DeskFailure';
  }
}
