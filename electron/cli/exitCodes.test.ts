import { describe, expect, it } from 'vitest';
import type { DeskErrorCode } from '../../shared/contract/errorCodes';
import { DeskFailure } from '../../shared/result';
import { EXIT, exitCodeFor, exitCodeOf, type FailureKind } from './exitCodes';

const failure = (code: DeskErrorCode) => new DeskFailure(code, 'Something happened.');

/** What each kind of command answers for each failure code, as the commands did before sharing one map. */
const expected: Record<FailureKind, Partial<Record<DeskErrorCode, number>>> = {
  uncaught: {
    NETWORK: 3,
    AUTH_FAILED: 3,
    SERVICE_UNAVAILABLE: 3,
    BAD_RESPONSE: 3,
    NOT_CONFIGURED: 2,
    TEAM_UNREACHABLE: 2,
    INVALID_ROWS: 2,
    INVALID_INPUT: 2,
  },
  service: {
    NETWORK: 3,
    AUTH_FAILED: 3,
    SERVICE_UNAVAILABLE: 3,
    BAD_RESPONSE: 3,
    NOT_CONFIGURED: 3,
    AMBIGUOUS: 2,
    TEAM_UNREACHABLE: 2,
    INVALID_ROWS: 2,
    INVALID_INPUT: 2,
  },
  upload: {
    NETWORK: 3,
    NOT_CONFIGURED: 3,
    AMBIGUOUS: 3,
    UPLOAD_FAILED: 3,
    TEAM_UNAVAILABLE: 3,
    TEAM_UNREACHABLE: 3,
    TEAM_LOGIN_FAILED: 3,
    TEAM_REFUSED: 3,
    TEAM_ERROR: 3,
    INVALID_ROWS: 1,
    DUPLICATES: 1,
    NOTHING_TO_SEND: 1,
    NOT_IN_ERROR: 1,
    ALREADY_CORRECTED: 1,
    UPLOAD_REJECTED: 1,
    NOT_FOUND: 2,
    INVALID_INPUT: 2,
  },
  uploadErrors: { NETWORK: 3, TEAM_REFUSED: 3, NOT_IN_ERROR: 2, INVALID_ROWS: 1, NOT_FOUND: 2 },
  teamDecision: {
    TEAM_UNAVAILABLE: 3,
    TEAM_UNREACHABLE: 3,
    TEAM_LOGIN_FAILED: 3,
    TEAM_ERROR: 3,
    TEAM_NOT_SET_UP: 2,
    TEAM_SCHEMA_OLD: 2,
    INVALID_INPUT: 2,
    NOT_CONFIGURED: 2,
    TEAM_REFUSED: 1,
    NOT_FOUND: 1,
  },
  approvedSend: { TEAM_UNREACHABLE: 3, TEAM_ERROR: 3, NETWORK: 1, TEAM_REFUSED: 1 },
  teamInit: { TEAM_UNREACHABLE: 3, TEAM_LOGIN_FAILED: 3, TEAM_UNAVAILABLE: 2, INVALID_INPUT: 2 },
  teamAudit: { INVALID_INPUT: 2, TEAM_UNREACHABLE: 3, TEAM_REFUSED: 3 },
  localDatabase: { DB_UNREADABLE: 1, DB_MISSING: 1, BUSY: 2, INVALID_INPUT: 2 },
};

describe('the exit code of a failure', () => {
  for (const [kind, codes] of Object.entries(expected) as Array<
    [FailureKind, Partial<Record<DeskErrorCode, number>>]
  >) {
    it(`is what ${kind} commands have always answered`, () => {
      for (const [code, exit] of Object.entries(codes) as Array<[DeskErrorCode, number]>) {
        expect([code, exitCodeFor(kind, code)]).toEqual([code, exit]);
        expect([code, exitCodeOf(kind, failure(code))]).toEqual([code, exit]);
      }
    });
  }

  it('of something that is not a DeskFailure depends on the kind of command', () => {
    const crash = new Error('socket hang up');
    expect(exitCodeOf('uncaught', crash)).toBe(EXIT.usage);
    expect(exitCodeOf('teamDecision', crash)).toBe(EXIT.service);
    expect(exitCodeOf('approvedSend', crash)).toBe(EXIT.problems);
    expect(exitCodeOf('teamAudit', crash)).toBe(EXIT.service);
  });

  it('keeps the documented numbers', () => {
    expect(EXIT).toEqual({
      ok: 0,
      problems: 1,
      usage: 2,
      service: 3,
      waitingForApproval: 4,
      maintenance: 5,
      fileNotAsDeclared: 6,
    });
  });

  it('answers 5 for the service’s scheduled maintenance wherever the giving service is used', () => {
    for (const kind of ['uncaught', 'service', 'upload', 'uploadErrors'] as const)
      expect(exitCodeFor(kind, 'MAINTENANCE')).toBe(EXIT.maintenance);
  });
});
