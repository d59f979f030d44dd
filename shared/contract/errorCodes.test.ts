import { describe, expect, it } from 'vitest';
import { DESK_ERROR_CODES, isDeskErrorCode } from './errorCodes';

describe('the failure codes of Donation Desk', () => {
  it('are listed once each, in capitals with underscores', () => {
    expect(new Set(DESK_ERROR_CODES).size).toBe(DESK_ERROR_CODES.length);
    for (const code of DESK_ERROR_CODES) expect(code).toMatch(/^[A-Z][A-Z_]*[A-Z]$/);
  });

  it('tell a code of the app from anything else', () => {
    expect(isDeskErrorCode('TEAM_REFUSED')).toBe(true);
    expect(isDeskErrorCode('TEAM_REFUSE')).toBe(false);
    expect(isDeskErrorCode('CAUSE_NOT_IN_GOOD_STANDING')).toBe(false);
  });
});
