/// <reference lib="webworker" />
import { checkFile, type CheckableDonation, type FileIssue } from '../../../../../shared/donation';

/**
 * The worker keeps its own copy of every row's donation, so after the first message only the rows
 * that changed cross the thread boundary: copying 100,000 donations on every pause in typing would
 * itself freeze the window.
 */
export type AcrossRowsRequest =
  | {
      type: 'reset';
      id: number;
      keys: number[];
      labels: string[];
      donations: (CheckableDonation | undefined)[];
      ignoreMetadataKeys: string[];
    }
  | {
      type: 'update';
      id: number;
      /** The row order, when rows were added, removed or moved since the last message. */
      keys?: number[];
      labels?: string[];
      changed: [number, CheckableDonation | undefined][];
    };

export interface AcrossRowsReply {
  id: number;
  /** Issues with `row` as a position in the key order of that request. */
  issues: FileIssue[];
  keys: number[];
}

const donations = new Map<number, CheckableDonation | undefined>();
let keys: number[] = [];
let labels: string[] = [];
let ignoreMetadataKeys: string[] = [];

self.onmessage = (event: MessageEvent<AcrossRowsRequest>) => {
  const message = event.data;
  if (message.type === 'reset') {
    donations.clear();
    message.keys.forEach((key, i) => donations.set(key, message.donations[i]));
    ({ keys, labels, ignoreMetadataKeys } = message);
  } else {
    if (message.keys) keys = message.keys;
    if (message.labels) labels = message.labels;
    for (const [key, donation] of message.changed) donations.set(key, donation);
  }
  const issues = checkFile(
    keys.map((k) => donations.get(k)),
    { ignoreMetadataKeys, rowLabel: (i) => labels[i] ?? String(i + 1) },
  );
  (self as unknown as DedicatedWorkerGlobalScope).postMessage({
    id: message.id,
    issues,
    keys,
  } satisfies AcrossRowsReply);
};
