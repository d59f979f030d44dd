import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

class FakeUtility extends EventEmitter {
  posted: unknown[] = [];
  killed = false;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill(): boolean {
    this.killed = true;
    return true;
  }
}
const forks: { file: string; args: string[]; options: Record<string, unknown>; child: FakeUtility }[] = [];
vi.mock('electron', () => ({
  utilityProcess: {
    fork: (file: string, args: string[], options: Record<string, unknown>) => {
      const child = new FakeUtility();
      forks.push({ file, args, options, child });
      return child;
    },
  },
}));

const { readerFileFor, utilityReaderProcess } = await import('./readerProcess');
const { sheetJSInChildProcess } = await import('../services/spreadsheet/sheetJSProcess');

describe('the desktop app’s reading process', () => {
  it('is the program beside app.asar when installed, beside main’s bundle in development', () => {
    expect(readerFileFor(true, '/opt/Desk/resources', '/opt/Desk/resources/app.asar/out/main')).toBe(
      join('/opt/Desk/resources', 'sheetJSReader.cjs'),
    );
    expect(readerFileFor(false, '/ignored', '/src/out/main')).toBe(
      join('/src/out/main', 'sheetJSReader.cjs'),
    );
  });

  it('is an Electron utility process with the heap limit, never the app binary run as Node', async () => {
    const read = sheetJSInChildProcess({
      maxHeapMb: 300,
      launch: utilityReaderProcess('/r/sheetJSReader.cjs'),
    });
    const answer = read(new Uint8Array([1, 2, 3]), { sheet: 'Gifts' });
    const { file, options, child } = forks.at(-1)!;
    expect(file).toBe('/r/sheetJSReader.cjs');
    expect(options.execArgv).toEqual(['--max-old-space-size=300']);
    expect((options.env as Record<string, string>).DESK_SHEETJS_MODULE).toMatch(/xlsx/);
    expect((options.env as Record<string, string>).ELECTRON_RUN_AS_NODE).toBeUndefined();
    expect(child.posted).toEqual([
      expect.objectContaining({ bytes: new Uint8Array([1, 2, 3]), sheet: 'Gifts' }),
    ]);
    child.emit('message', { sheetNames: ['Gifts'], date1904: false, cells: [], merges: [] });
    await expect(answer).resolves.toMatchObject({ sheetNames: ['Gifts'] });
    // One answer is all it gives: the process is ended, not left running.
    expect(child.killed).toBe(true);
  });

  it('refuses plainly when the utility process ends without an answer', async () => {
    const read = sheetJSInChildProcess({ launch: utilityReaderProcess('/r/sheetJSReader.cjs') });
    const answer = read(new Uint8Array([1]), {});
    const { child } = forks.at(-1)!;
    child.emit('error', 'FatalError', 'v8', '');
    child.emit('exit', 134);
    await expect(answer).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
      message: expect.stringContaining('the spreadsheet reader stopped part-way'),
    });
  });
});
