import { DeskFailure } from '../result';

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
