import { describe, expect, it } from 'vitest';
import { endOnce } from './apartProcess';

describe('endOnce', () => {
  it('tells each listener once, however many signs of the end come', () => {
    const gone = endOnce();
    const told: string[] = [];
    gone.onEnd(() => told.push('first'));
    gone.onEnd(() => told.push('second'));
    expect(gone.ended).toBe(false);
    gone.end();
    gone.end();
    expect(gone.ended).toBe(true);
    expect(told).toEqual(['first', 'second']);
  });

  it('tells a listener added after the end at once', () => {
    const gone = endOnce();
    gone.end();
    let told = 0;
    gone.onEnd(() => told++);
    gone.end();
    expect(told).toBe(1);
  });
});
