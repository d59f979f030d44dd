import { describe, expect, it } from 'vitest';
import { bulkStatusWord, codeWord, donationStatusWord, withCode } from './serviceWords';

describe('service words', () => {
  it('says every donation and bulk status in plain words', () => {
    for (const s of ['ACCEPTED', 'INITIATED', 'IN_PROGRESS', 'PAID', 'CLEARED', 'DECLINED']) {
      expect(donationStatusWord(s)).not.toMatch(/^[A-Z_]+$/);
    }
    expect(donationStatusWord('IN_PROGRESS')).toBe('Being paid');
    for (const s of ['PENDING', 'UPLOADED', 'VALIDATED', 'PROCESSING', 'PROCESSED', 'ERROR']) {
      expect(bulkStatusWord(s)).not.toMatch(/^[A-Z_]+$/);
    }
  });

  it('explains known codes and makes unknown ones readable', () => {
    expect(codeWord('CAUSE_NOT_IN_GOOD_STANDING')).toBe('The cause cannot receive donations at the moment');
    expect(codeWord('SOMETHING_NEW')).toBe('Something new');
    expect(withCode('Declined', 'DECLINED')).toBe('Declined (DECLINED)');
  });
});
