import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const setFlagsFromString = vi.fn();
vi.mock('node:v8', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  setFlagsFromString,
}));

describe('the heap growth of the commands that read a long history', () => {
  it('sets V8’s growing factor, and no heap limit', async () => {
    const { boundHeapGrowth, HEAP_GROWING_PERCENT } = await import('./heapGrowth');
    boundHeapGrowth();
    expect(setFlagsFromString).toHaveBeenCalledWith(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(setFlagsFromString.mock.calls.flat().join(' ')).not.toMatch(/max-old-space|max-heap|semi-space/);
  });

  it('is set by report and donations only, never by upload or validate', () => {
    const folder = join(__dirname, 'commands');
    const users = readdirSync(folder)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => readFileSync(join(folder, f), 'utf8').includes('boundHeapGrowth()'))
      .sort();
    expect(users).toEqual(['donations.ts', 'report.ts']);
  });
});
