import { describe, expect, it } from 'vitest';
import { count, plural } from './plural';

describe('plural and count', () => {
  it('uses the singular for one and the plural otherwise', () => {
    expect(count(1, 'row')).toBe('1 row');
    expect(count(0, 'row')).toBe('0 rows');
    expect(count(2, 'donation')).toBe('2 donations');
    expect(count(1234, 'donation')).toBe('1,234 donations');
    expect(count(1, 'entry', 'entries')).toBe('1 entry');
    expect(count(3, 'entry', 'entries')).toBe('3 entries');
  });

  it('picks a verb form by the count', () => {
    expect(plural(1, { one: 'was', other: 'were' })).toBe('was');
    expect(plural(5, { one: 'was', other: 'were' })).toBe('were');
  });

  it('follows the locale rules, not English ones', () => {
    // French treats 0 and 1 alike; English does not.
    expect(plural(0, { one: 'ligne', other: 'lignes' }, 'fr')).toBe('ligne');
    expect(plural(0, { one: 'row', other: 'rows' }, 'en')).toBe('rows');
  });
});
