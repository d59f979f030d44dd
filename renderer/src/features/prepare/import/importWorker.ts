/// <reference lib="webworker" />
import { readSpreadsheet, listSheets } from '../../../../../shared/spreadsheet';

export type ImportRequest = { bytes: ArrayBuffer; fileName: string; sheet?: string; headerRow?: number };
export type ImportReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'sheets'; names: string[] }
  | { type: 'result'; result: Awaited<ReturnType<typeof readSpreadsheet>> }
  | { type: 'error'; message: string };

const post = (reply: ImportReply) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(reply);

// Parsing runs here so the window never freezes; cancelling terminates this worker.
self.onmessage = async (event: MessageEvent<ImportRequest>) => {
  const { bytes, fileName, sheet, headerRow } = event.data;
  const data = new Uint8Array(bytes);
  try {
    post({ type: 'sheets', names: listSheets(data, fileName) });
    let last = 0;
    const result = await readSpreadsheet(data, fileName, {
      ...(sheet ? { sheet } : {}),
      ...(headerRow ? { headerRow } : {}),
      onProgress(done, total) {
        const now = Date.now();
        if (now - last > 50 || done === total) {
          last = now;
          post({ type: 'progress', done, total });
        }
      },
    });
    post({ type: 'result', result });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
};
