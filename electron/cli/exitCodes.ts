import type { DeskErrorCode } from '../../shared/contract/errorCodes';
import { DeskFailure } from '../../shared/result';

/**
 * The exit codes of every donation-desk command, and which failure code means which exit code.
 * This is the one place they are decided; `--help`, each command's usage and the README say the
 * same in words.
 */
export const EXIT = {
  ok: 0,
  /**
   * Rows are invalid, an upload ended in ERROR, a report does not reconcile, an audit trail is
   * broken (`audit verify`: an entry changed, removed or added from outside the app).
   */
  problems: 1,
  /** The file, the arguments or the configuration cannot be used. */
  usage: 2,
  /** The service could not be reached or refused the credentials. */
  service: 3,
  /** Team mode: the upload is recorded and waits for an approver before anything is sent. */
  waitingForApproval: 4,
  /**
   * The giving service is in its scheduled maintenance: nothing failed and nothing is lost; the
   * work goes on when it is back (run the command again after the time given).
   */
  maintenance: 5,
  /**
   * Team mode: the approver's computer read the upload's file and it differs from what the
   * preparer's app declared, or it cannot be checked: nothing was approved.
   */
  fileNotAsDeclared: 6,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit codes in words, for `donation-desk --help`. */
export const EXIT_CODES_HELP = `Exit codes: 0 done; 1 problems found (invalid rows, rows already sent, an upload in ERROR or stopped,
totals that do not reconcile, a decision the team database refused, an audit trail found broken by
audit verify); 2 the file, arguments or
configuration cannot be used; 3 the service (or the team database) could not be reached or refused
access; 4 team mode: the upload waits for an approver (nothing was sent yet); 5 the giving service
is in its scheduled maintenance (nothing failed, nothing is lost: run it again after the time given); 6 team mode: the
upload's file differs from what its preparer's app declared, or cannot be checked (not approved).`;

/** The giving service could not be reached, refused the credentials, or answered something unreadable. */
const SERVICE_UNREACHED = ['NETWORK', 'AUTH_FAILED', 'SERVICE_UNAVAILABLE', 'BAD_RESPONSE'] as const;
/** The giving service is in its scheduled maintenance (a hold, not a failure). */
const IN_MAINTENANCE = ['MAINTENANCE'] as const;
/** The team database could not be reached, refused the login, or failed on its side. */
const TEAM_UNREACHED = ['TEAM_UNAVAILABLE', 'TEAM_UNREACHABLE', 'TEAM_LOGIN_FAILED', 'TEAM_ERROR'] as const;

/** An upload that could not be sent or followed: the service or the team database in the way. */
const UPLOAD_UNSETTLED = [
  ...SERVICE_UNREACHED,
  'AMBIGUOUS',
  'UPLOAD_FAILED',
  'NOT_CONFIGURED',
  ...TEAM_UNREACHED,
  'TEAM_REFUSED',
] as const;
/** An upload that was refused for what it holds or where it stands. */
const UPLOAD_PROBLEMS = [
  'INVALID_ROWS',
  'DUPLICATES',
  'NOTHING_TO_SEND',
  'NOT_IN_ERROR',
  'ALREADY_CORRECTED',
  'UPLOAD_REJECTED',
] as const;

/** How the failures met by one kind of command turn into exit codes. */
interface FailureExits {
  maintenance?: readonly DeskErrorCode[];
  service?: readonly DeskErrorCode[];
  problems?: readonly DeskErrorCode[];
  usage?: readonly DeskErrorCode[];
  /** A failure whose code is not listed above. */
  otherwise: ExitCode;
  /** Anything thrown that is not a DeskFailure (a crash, a driver error). */
  notAFailure: ExitCode;
}

/** Which failure code means which exit code, by the kind of command that met it. */
export const FAILURE_EXITS = {
  /** A failure no command caught, answered by runCli. */
  uncaught: {
    maintenance: IN_MAINTENANCE,
    service: SERVICE_UNREACHED,
    otherwise: EXIT.usage,
    notAFailure: EXIT.usage,
  },
  /** Commands that read or write through the giving service: donations, locations, report, search. */
  service: {
    maintenance: IN_MAINTENANCE,
    service: [...SERVICE_UNREACHED, 'NOT_CONFIGURED'],
    otherwise: EXIT.usage,
    notAFailure: EXIT.usage,
  },
  /** upload, status and resume: sending and following bulk uploads, alone or in a team. */
  upload: {
    maintenance: IN_MAINTENANCE,
    service: UPLOAD_UNSETTLED,
    problems: UPLOAD_PROBLEMS,
    otherwise: EXIT.usage,
    notAFailure: EXIT.usage,
  },
  /** `errors`: an intent that is not in ERROR is a wrong argument there, not a problem found. */
  uploadErrors: {
    maintenance: IN_MAINTENANCE,
    service: UPLOAD_UNSETTLED,
    problems: UPLOAD_PROBLEMS.filter((code) => code !== 'NOT_IN_ERROR'),
    otherwise: EXIT.usage,
    notAFailure: EXIT.usage,
  },
  /** Team decisions (approvals, corrections): not reached 3, not set up 2, otherwise it said no: 1. */
  teamDecision: {
    service: TEAM_UNREACHED,
    usage: ['TEAM_NOT_SET_UP', 'TEAM_SCHEMA_OLD', 'INVALID_INPUT', 'NOT_CONFIGURED'],
    otherwise: EXIT.problems,
    notAFailure: EXIT.service,
  },
  /** An approver's send after approving: the team database not reached 3, anything else 1. */
  approvedSend: { service: TEAM_UNREACHED, otherwise: EXIT.problems, notAFailure: EXIT.problems },
  /** `db init-team`: the server not reached or the login refused 3, anything else 2. */
  teamInit: {
    service: ['TEAM_UNREACHABLE', 'TEAM_LOGIN_FAILED'],
    otherwise: EXIT.usage,
    notAFailure: EXIT.usage,
  },
  /** Reading the team's audit trail: a filter that cannot be used 2, anything else 3. */
  teamAudit: { usage: ['INVALID_INPUT'], otherwise: EXIT.service, notAFailure: EXIT.service },
  /** `db check` and the other local database commands: a damaged or missing database 1. */
  localDatabase: {
    problems: ['DB_UNREADABLE', 'DB_MISSING'],
    otherwise: EXIT.usage,
    notAFailure: EXIT.usage,
  },
} as const satisfies Record<string, FailureExits>;

export type FailureKind = keyof typeof FAILURE_EXITS;

/** The exit code of a failure's code met by a command of the given kind. */
export function exitCodeFor(kind: FailureKind, code: DeskErrorCode): ExitCode {
  const exits: FailureExits = FAILURE_EXITS[kind];
  if (exits.maintenance?.includes(code)) return EXIT.maintenance;
  if (exits.service?.includes(code)) return EXIT.service;
  if (exits.problems?.includes(code)) return EXIT.problems;
  if (exits.usage?.includes(code)) return EXIT.usage;
  return exits.otherwise;
}

/** The exit code of what a command of the given kind caught. */
export function exitCodeOf(kind: FailureKind, e: unknown): ExitCode {
  return e instanceof DeskFailure ? exitCodeFor(kind, e.code) : FAILURE_EXITS[kind].notAFailure;
}
