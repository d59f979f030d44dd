/// <reference lib="webworker" />
import { checkFile, type CheckableDonation, type FileIssue } from '../../../../../shared/donation';

export interface AcrossRowsRequest {
  id: number;
  donations: (CheckableDonation | undefined)[];
  rowLabels: string[];
  ignoreMetadataKeys: string[];
}
export interface AcrossRowsReply {
  id: number;
  issues: FileIssue[];
}

// Duplicates and outliers need every row; at 100,000 rows that is too long for the window's thread.
self.onmessage = (event: MessageEvent<AcrossRowsRequest>) => {
  const { id, donations, rowLabels, ignoreMetadataKeys } = event.data;
  const issues = checkFile(donations, { ignoreMetadataKeys, rowLabel: (i) => rowLabels[i] ?? String(i + 1) });
  (self as unknown as DedicatedWorkerGlobalScope).postMessage({ id, issues } satisfies AcrossRowsReply);
};
