/// <reference lib="webworker" />
import { AcrossRowsState, type AcrossRowsReply, type AcrossRowsRequest } from './acrossRowsState';

export type { AcrossRowsReply, AcrossRowsRequest } from './acrossRowsState';

const state = new AcrossRowsState();

self.onmessage = (event: MessageEvent<AcrossRowsRequest>) => {
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(
    state.handle(event.data) satisfies AcrossRowsReply,
  );
};
