import { describe, expect, it } from 'vitest';
import { isEmail } from './email';

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/** isEmail as it was written with regexes only, to hold the hand-written one to. */
function reference(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(text.slice(at + 1));
}

describe('isEmail', () => {
  it.each([
    'ann@example.com',
    'ann.lee@example.com',
    '.a@example.com',
    'a.@example.com',
    'a..b@example.com',
    "o'brien+gifts@example.co.uk",
    'a b@example.com',
    'zoë@example.com',
    '@example.com',
    'a@b',
    'a@@example.com',
    'a@example.com.',
    `${'x'.repeat(64)}@example.com`,
    `${'x'.repeat(65)}@example.com`,
  ])('%j as the regexes judge it', (text) => {
    expect(isEmail(text)).toBe(reference(text));
  });

  it('agrees with the regexes on many random addresses', () => {
    let state = 11;
    const next = (n: number) => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state % n;
    };
    const alphabet = 'ab.Z9-_+!#@é "\\(';
    for (let i = 0; i < 5000; i++) {
      const local = Array.from({ length: 1 + next(8) }, () => alphabet[next(alphabet.length)]).join('');
      const text = `${local}@${['example.com', 'x.io', 'bad', 'a..b.com'][next(4)]}`;
      expect(isEmail(text), text).toBe(reference(text));
    }
  });
});
