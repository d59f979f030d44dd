import { spawn } from 'node:child_process';
import { endOnce, type ApartProcess, type ApartProgram, type LaunchApartProcess } from './apartProcess';

/** A program as plain Node runs it: a source given with `-e`, or a file. */
export type NodeProgram = { source: string } | { file: string };

/**
 * Starts apart programs as Node child processes with an IPC channel (the CLI and the local bridge,
 * which run on Node itself). A program not given here cannot be started: the call throws.
 */
export function nodeApartProcess(programs: Partial<Record<ApartProgram, NodeProgram>>): LaunchApartProcess {
  return ({ program, maxHeapMb, env }) => {
    const what = programs[program];
    if (!what) throw new Error(`There is no ${program} program here.`);
    const child = spawn(
      process.execPath,
      [
        ...(maxHeapMb ? [`--max-old-space-size=${maxHeapMb}`] : []),
        ...('source' in what ? ['-e', what.source] : [what.file]),
      ],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
        env: { ...process.env, ...env },
      },
    );
    const gone = endOnce();
    child.once('error', () => gone.end());
    child.once('close', () => gone.end());
    return {
      send: (message) => {
        if (!child.connected) return;
        child.send(message as Parameters<typeof child.send>[0], (error) => {
          if (error) gone.end();
        });
      },
      onMessage: (listener) => child.on('message', listener),
      onEnd: (listener) => gone.onEnd(listener),
      kill: () => child.kill('SIGKILL'),
    } satisfies ApartProcess;
  };
}
