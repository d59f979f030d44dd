import { describe, expect, it } from 'vitest';
import { KeyedLocks, SerialQueue } from './serialWork';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('work that must not overlap', () => {
  it('runs queued work one after another, a failure not blocking what follows', async () => {
    const queue = new SerialQueue();
    const seen: string[] = [];
    const first = queue.run(async () => {
      seen.push('a start');
      await tick();
      seen.push('a end');
      throw new Error('a failed');
    });
    const second = queue.run(async () => {
      seen.push('b');
      return 2;
    });
    await expect(first).rejects.toThrow('a failed');
    expect(await second).toBe(2);
    await queue.idle();
    expect(seen).toEqual(['a start', 'a end', 'b']);
  });

  it('locks per key: one key waits for itself, another runs meanwhile', async () => {
    const locks = new KeyedLocks();
    const seen: string[] = [];
    const slow = locks.with('u1', async () => {
      await tick();
      seen.push('u1 first');
    });
    const again = locks.with('u1', async () => {
      seen.push('u1 second');
    });
    const other = locks.with('u2', async () => {
      seen.push('u2');
    });
    await Promise.all([slow, again, other]);
    await locks.idle();
    expect(seen).toEqual(['u2', 'u1 first', 'u1 second']);
  });
});
