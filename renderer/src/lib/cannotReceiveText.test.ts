import { describe, expect, it } from 'vitest';
import { cannotReceiveText } from './cannotReceiveText';

describe('cannot-receive text', () => {
  it('puts the reason in a sentence, starting lower case, with the day the donation was declined', () => {
    const declinedAt = '2026-11-25T10:00:00.000Z';
    expect(
      cannotReceiveText({
        code: 'CAUSE_CANNOT_RECEIVE',
        reason: 'The cause has no bank account on file.',
        declinedAt,
        donationId: 'd-1',
      }),
    ).toBe(
      `Cannot receive money: the cause has no bank account on file. (a donation to it was declined on ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(declinedAt))}).`,
    );
  });
});
