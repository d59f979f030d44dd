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

const { apartFilesFor, utilityApartProcess } = await import('./apartProcess');
const { sheetJSInChildProcess } = await import('../services/spreadsheet/sheetJSProcess');

const FILES = { sheetJSReader: '/r/sheetJSReader.cjs', offlineSandbox: '/r/offlineSandbox.cjs' };

describe('the desktop app’s apart processes', () => {
  it('runs programs beside app.asar when installed, the built ones in development', () => {
    expect(apartFilesFor(true, '/opt/Desk/resources', '/opt/Desk/resources/app.asar/out/main')).toEqual({
      sheetJSReader: join('/opt/Desk/resources', 'sheetJSReader.cjs'),
      offlineSandbox: join('/opt/Desk/resources', 'offlineSandbox.cjs'),
    });
    expect(apartFilesFor(false, '/ignored', '/src/out/main')).toEqual({
      sheetJSReader: join('/src/out/main', 'sheetJSReader.cjs'),
      offlineSandbox: join('/src/out/emulator', 'index.cjs'),
    });
  });

  it('is an Electron utility process with the heap limit, never the app binary run as Node', async () => {
    const read = sheetJSInChildProcess({
      maxHeapMb: 300,
      launch: utilityApartProcess(FILES),
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
    const read = sheetJSInChildProcess({ launch: utilityApartProcess(FILES) });
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
