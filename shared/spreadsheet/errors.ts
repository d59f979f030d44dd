import { DeskFailure } from '../result';
import { sizeText } from './limits';

/** Thrown when the caller cancels an import; callers tell it apart by class or by its code. */
export class ImportCancelledError extends DeskFailure {
  constructor() {
    super('IMPORT_CANCELLED', 'The import was cancelled.');
    this.name = 'ImportCancelledError';
  }
}

/** The file cannot be read as a spreadsheet; the message says why and what to do. */
export class SpreadsheetReadError extends DeskFailure {
  constructor(message: string, details?: unknown) {
    super('SPREADSHEET_UNREADABLE', message, details);
    this.name = 'SpreadsheetReadError';
  }
}

/**
 * A part (or the whole file) would inflate past a limit of READ_LIMITS: a zip bomb, or damage that
 * reads as one. Refused before the memory is taken; no other reader is tried.
 */
export class ExpandsTooFarError extends SpreadsheetReadError {
  constructor(readonly limit: number) {
    super(
      `This file would expand to more than ${sizeText(limit)} when opened — it may be damaged or built to harm: open it in Excel and save it again.`,
      { limit },
    );
    this.name = 'ExpandsTooFarError';
  }
}

export const expandsTooFar = (limit: number): ExpandsTooFarError => new ExpandsTooFarError(limit);
