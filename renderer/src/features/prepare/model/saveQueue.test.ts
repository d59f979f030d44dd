import { describe, expect, it } from 'vitest';
import type { WorkspaceEdit } from '../../../../../shared/contract';
import { err, ok, type Result } from '../../../../../shared/result';
import { SaveQueue, type SaveState } from './saveQueue';

const edit = (value: string): WorkspaceEdit[] => [{ op: 'set', key: 0, column: 1, value }];

/** main's side, answered by hand: each call waits until the test answers it. */
function main() {
  const calls: {
    baseVersion: number;
    edits: WorkspaceEdit[];
    answer: (r: Result<{ version: number }>) => void;
  }[] = [];
  const send = (baseVersion: number, edits: WorkspaceEdit[]) =>
    new Promise<Result<{ version: number }>>((answer) => calls.push({ baseVersion, edits, answer }));
  return { calls, send };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SaveQueue', () => {
  it('says saved only when every edit made is acknowledged, not when the first of two is', async () => {
    const { calls, send } = main();
    const states: SaveState[] = [];
    const queue = new SaveQueue(3, send, (s) => states.push(s));
    void queue.push(edit('undo'));
    void queue.push(edit('redo'));
    expect(states).toEqual([{ status: 'saving' }]);
    await settle();
    // One at a time, in order.
    expect(calls).toHaveLength(1);
    calls[0]!.answer(ok({ version: 4 }));
    await settle();
    // The second edit is not yet journaled: still saving.
    expect(states.at(-1)).toEqual({ status: 'saving' });
    expect(queue.settled).toBe(false);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.baseVersion).toBe(4);
    expect(calls[1]!.edits).toEqual(edit('redo'));
    calls[1]!.answer(ok({ version: 5 }));
    await settle();
    expect(states).toEqual([{ status: 'saving' }, { status: 'saved' }]);
    expect(queue.settled).toBe(true);
  });

  it('sends nothing more once an edit is refused, so main never holds later edits without it', async () => {
    const { calls, send } = main();
    const states: SaveState[] = [];
    const queue = new SaveQueue(0, send, (s) => states.push(s));
    const first = queue.push(edit('a'));
    // Waiting behind the one that will be refused.
    void queue.push(edit('b'));
    await settle();
    calls[0]!.answer(err('VERSION_MISMATCH', 'An edit was lost.'));
    await first;
    void queue.push(edit('c'));
    expect(await queue.whenSaved()).toBe(false);
    expect(calls).toHaveLength(1);
    expect(states).toEqual([{ status: 'saving' }, { status: 'failed', message: 'An edit was lost.' }]);
  });

  it('lets a reader of main’s copy wait until every edit made so far is saved', async () => {
    const { calls, send } = main();
    const queue = new SaveQueue(0, send, () => undefined);
    void queue.push(edit('a'));
    let saved: boolean | null = null;
    void queue.whenSaved().then((s) => (saved = s));
    await settle();
    // An edit made while waiting is waited for too.
    void queue.push(edit('b'));
    calls[0]!.answer(ok({ version: 1 }));
    await settle();
    expect(saved).toBeNull();
    calls[1]!.answer(ok({ version: 2 }));
    await settle();
    expect(saved).toBe(true);
  });

  it('counts a call that throws as a failed save', async () => {
    const states: SaveState[] = [];
    let n = 0;
    const queue = new SaveQueue(
      0,
      () =>
        n++ === 0 ? Promise.reject(new Error('The bridge went away.')) : Promise.resolve(ok({ version: 1 })),
      (s) => states.push(s),
    );
    await queue.push(edit('a'));
    await queue.push(edit('b'));
    expect(n).toBe(1);
    expect(states.at(-1)).toEqual({ status: 'failed', message: 'The bridge went away.' });
  });

  it('waits for beforeSend (the next frame) before each batch', async () => {
    const { calls, send } = main();
    let release: () => void = () => undefined;
    const queue = new SaveQueue(
      0,
      send,
      () => undefined,
      () => new Promise<void>((r) => (release = r)),
    );
    void queue.push(edit('a'));
    await settle();
    expect(calls).toHaveLength(0);
    release();
    await settle();
    expect(calls).toHaveLength(1);
  });
});
