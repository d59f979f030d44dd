/**
 * Every code a failure of Donation Desk carries (`DeskFailure`, `{ ok: false, error }` across IPC,
 * the local bridge and the CLI). A code not listed here does not typecheck. These are the app's own
 * codes; the giving service's codes (in its error entries and error files) are not among them.
 */
export const DESK_ERROR_CODES = [
  // Crossing the boundary: the contract, IPC and the local bridge.
  /** The input did not match the channel's request, or an argument or filter cannot be used. */
  'INVALID_INPUT',
  /** No channel by that name. */
  'UNKNOWN_CHANNEL',
  /** An answer (of a channel or of the service) did not have the shape expected. */
  'BAD_RESPONSE',
  /** Something unexpected failed; the message carries no detail, the log does. */
  'INTERNAL',
  /** An IPC call came from a frame that is not the app's window. */
  'FORBIDDEN_SENDER',
  /** The bridge was called from another web page. */
  'FORBIDDEN_ORIGIN',
  /** The bridge was called without this launch's secret. */
  'NO_SECRET',
  /** The bridge was called under a host name it does not serve. */
  'WRONG_HOST',
  /** The bridge was called with an HTTP method it does not take. */
  'METHOD',
  /** The bridge was called with a body that is not JSON. */
  'CONTENT_TYPE',
  /** The bridge was asked for an address whose percent escapes are broken. */
  'BAD_PATH',
  /** A request body was larger than one call may send. */
  'TOO_LARGE',
  /** The bridge holds as many request bytes as it takes at once: try again shortly. */
  'BRIDGE_BUSY',
  /** The page lost contact with the bridge. */
  'BRIDGE_DOWN',

  // The computer and the app's set-up.
  /** The thing asked for does not exist (a file, an upload, a donation, a service resource). */
  'NOT_FOUND',
  /** A command or a store was used in a way it cannot be (a CLI argument, a path). */
  'USAGE',
  /** The chosen environment lacks its addresses or credentials. */
  'NOT_CONFIGURED',
  /** Only the Offline sandbox's clock can be moved. */
  'NOT_OFFLINE',
  /** An address outside the giving program's site was not opened. */
  'FORBIDDEN_URL',
  /** The platform refused to open an address outside the giving program's site. */
  'EXTERNAL_URL_REFUSED',
  /** The computer has no protected storage for the client secret. */
  'SECRET_STORAGE_WEAK',
  /** A feature needs a part of the app that is not running (e.g. the Prepare workspaces). */
  'UNAVAILABLE',

  // The giving service.
  /** The service (or its token address) could not be reached. */
  'NETWORK',
  /** The service refused the client id or secret. */
  'AUTH_FAILED',
  /** The service kept answering that it is unavailable. */
  'SERVICE_UNAVAILABLE',
  /**
   * The service is in its scheduled maintenance: nothing was done, nothing failed; the work waits
   * for the window's end (details.until, ISO 8601) and goes on by itself.
   */
  'MAINTENANCE',
  /** The connection closed mid-request: the service may or may not have acted. */
  'AMBIGUOUS',
  /** The service answered 409. */
  'CONFLICT',
  /** The service refused the request (a 4xx other than 404 and 409). */
  'REJECTED',
  /** A part of an upload could not be delivered; it is tried again. */
  'UPLOAD_FAILED',
  /** The upload host kept refusing a part, so the upload was stopped. */
  'UPLOAD_REJECTED',

  // Stores on disk.
  /** The store is open elsewhere (another window or command). */
  'BUSY',
  /** The store was closed. */
  'CLOSED',
  /** The database is gone from a folder that had one. */
  'DB_MISSING',
  /** The database was written by a newer Donation Desk. */
  'DB_TOO_NEW',
  /** The database cannot be read or opened as it should. */
  'DB_UNREADABLE',
  /** The data folder has no database yet. */
  'NO_DATABASE',
  /** A backup did not read back whole. */
  'BACKUP_FAILED',
  /** The upload ledger cannot be read; it was left untouched. */
  'LEDGER_UNREADABLE',
  /** The app's copy of an uploaded file is missing or changed. */
  'LEDGER_FILE_MISSING',
  /** The donation store cannot be read; it was left untouched. */
  'STORE_UNREADABLE',
  /** A workspace file is damaged. */
  'DAMAGED_WORKSPACE',
  /** A workspace changed elsewhere since it was read. */
  'STALE_WORKSPACE',
  /** The rows sent ahead for a workspace are no longer held. */
  'STAGED_ROWS_GONE',
  /** A change would take a workspace past its limits (rows, columns, cells, characters). */
  'WORKSPACE_TOO_LARGE',

  // Preparing and uploading.
  /** The person cancelled reading a spreadsheet. */
  'IMPORT_CANCELLED',
  /** The file cannot be read as a spreadsheet. */
  'SPREADSHEET_UNREADABLE',
  /** A workspace has no usable column mapping. */
  'NO_MAPPING',
  /** A workspace to upload has no usable column mapping. */
  'NOT_MAPPED',
  /** The column mapping does not cover what the rows need (a column missing, a field twice). */
  'MAPPING_INCOMPLETE',
  /** No row is valid, so there is no bulk file to build. */
  'NOTHING_VALID',
  /** Rows have errors. */
  'INVALID_ROWS',
  /** Rows were already sent and the resend was not confirmed. */
  'DUPLICATES',
  /** Every row of a bulk already has a donation. */
  'NOTHING_TO_SEND',
  /** This upload is not for this person or state to send. */
  'NOT_TO_SEND',
  /** The upload was sent from this computer for a colleague whose workspace is elsewhere. */
  'NOT_HERE',
  /** The upload was prepared for another environment. */
  'WRONG_ENVIRONMENT',
  /** The stored file is not the one that was approved. */
  'FILE_MISMATCH',
  /** The approver's computer read the upload's file: it differs from its declaration, or cannot be checked. */
  'APPROVAL_BLOCKED',
  /** A failed bulk was already corrected by another upload. */
  'ALREADY_CORRECTED',
  /** Only corrections may carry the metadata that replaces a declined donation. */
  'REPLACEMENT_NOT_ALLOWED',
  /** Only a bulk in ERROR has an error file or can be corrected. */
  'NOT_IN_ERROR',
  /** The error file's address kept expiring before it could be downloaded. */
  'ERROR_FILE_UNAVAILABLE',
  /** Donations of a bulk could not be matched to rows, so nothing is resent. */
  'UNMATCHED_DONATIONS',

  // Reconciling.
  /** A listing was cancelled. */
  'CANCELLED',
  /** Only a declined donation can be dismissed or corrected. */
  'NOT_DECLINED',
  /** The declined donation was already replaced or dismissed. */
  'ALREADY_RESOLVED',
  /** The declined donation is being replaced by an upload. */
  'IN_UPLOAD',
  /** A correction is already under way elsewhere; a second would pay twice. */
  'CORRECTION_ELSEWHERE',
  /** Rows cannot replace the declined donations they name. */
  'REPLACEMENT_REFUSED',
  /** A single donation is not valid. */
  'INVALID_DONATION',
  /** A single donation got no answer: the service may have created it. */
  'MAYBE_CREATED',
  /** A correction got no answer: the service may have created it. */
  'MAYBE_REPLACED',

  // Team mode.
  /** The action needs the team database and none is configured. */
  'TEAM_ALONE',
  /** The team database could not be reached while uploading. */
  'TEAM_UNAVAILABLE',
  /** The team database could not be reached (address, network, TLS). */
  'TEAM_UNREACHABLE',
  /** The team database refused the login. */
  'TEAM_LOGIN_FAILED',
  /** The team database said no (a rule, a role, a state). */
  'TEAM_REFUSED',
  /** The team database answered with an unexpected error. */
  'TEAM_ERROR',
  /** The team database is not set up for Donation Desk. */
  'TEAM_NOT_SET_UP',
  /** The team database's schema is older than this app needs. */
  'TEAM_SCHEMA_OLD',
  /** A database's applied migration files differ from the app's: one was edited, renumbered or removed. */
  'SCHEMA_MISMATCH',
  /** The team database's schema is newer than this app knows. */
  'TEAM_NEWER',
  /** Setting up the team database needs an administrator's login. */
  'TEAM_NOT_ADMIN',
  /** The database holds a desk schema Donation Desk did not make. */
  'TEAM_NOT_DESK',
  /** The team's audit trail already holds other entries under this computer's origin and numbers. */
  'TEAM_TRAIL_CONFLICT',
] as const;

/** A code a Donation Desk failure carries. */
export type DeskErrorCode = (typeof DESK_ERROR_CODES)[number];

const known: ReadonlySet<string> = new Set(DESK_ERROR_CODES);

/** Whether a code (e.g. one read back from the audit trail) is one of Donation Desk's. */
export function isDeskErrorCode(code: string): code is DeskErrorCode {
  return known.has(code);
}
