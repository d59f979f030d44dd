import { describe, expect, it } from 'vitest';
import { sandboxSpeed, span } from './sandboxSpeed';

describe('sandboxSpeed', () => {
  it('says how much sandbox time one real minute is', () => {
    expect(sandboxSpeed(60)).toBe(
      'Its clock runs 60 times faster than real time: one real minute is 1 hour there, so its times run ahead of yours.',
    );
    expect(sandboxSpeed(600)).toContain('one real minute is 10 hours there');
    expect(sandboxSpeed(1440)).toContain('one real minute is 1 day there');
  });

  it('names a stopped and a real-time clock', () => {
    expect(sandboxSpeed(0)).toMatch(/stopped/);
    expect(sandboxSpeed(1)).toBe('Its clock runs at real time.');
  });

  it('spans in the largest whole unit, pluralised', () => {
    expect(span(60)).toBe('1 minute');
    expect(span(600)).toBe('10 minutes');
    expect(span(90)).toBe('90 seconds');
    expect(span(7200)).toBe('2 hours');
  });
});
