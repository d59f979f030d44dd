import type { SpreadsheetResult } from '../../../../../shared/spreadsheet';
import type { ImportReply, ImportRequest } from './importWorker';

export interface ImportJob {
  result: Promise<SpreadsheetResult>;
  cancel(): void;
}

export class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled.');
  }
}

/** Reads a spreadsheet in a Web Worker; progress is reported as a fraction from 0 to 1. */
export function startImport(
  request: Omit<ImportRequest, 'bytes'> & { bytes: Uint8Array },
  onProgress: (fraction: number) => void,
  onSheets?: (names: string[]) => void,
): ImportJob {
  const worker = new Worker(new URL('./importWorker.ts', import.meta.url), { type: 'module' });
  let rejectJob: (e: Error) => void = () => undefined;
  const result = new Promise<SpreadsheetResult>((resolve, reject) => {
    rejectJob = reject;
    worker.onmessage = (event: MessageEvent<ImportReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') onProgress(reply.total > 0 ? reply.done / reply.total : 0);
      else if (reply.type === 'sheets') onSheets?.(reply.names);
      else {
        worker.terminate();
        if (reply.type === 'result') resolve(reply.result);
        else reject(new Error(reply.message));
      }
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'The spreadsheet reader stopped unexpectedly.'));
    };
  });
  // The user's bytes are copied into the worker, never changed.
  const copy = request.bytes.slice().buffer;
  worker.postMessage({ ...request, bytes: copy } satisfies ImportRequest, [copy]);
  return {
    result,
    cancel() {
      worker.terminate();
      rejectJob(new ImportCancelled());
    },
  };
}
