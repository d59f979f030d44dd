import { checkFile, type CheckableDonation, type FileIssue } from '../../../../../shared/donation';

/**
 * What the worker of the across-rows warnings is asked: the worker keeps its own copy of every row's
 * donation, so after the first message only the rows that changed cross the thread boundary
 * (copying 100,000 donations on every pause in typing would itself freeze the window).
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

/** The rows' donations as the worker keeps them, and the checks across them. */
export class AcrossRowsState {
  /** By row key (keys are small whole numbers): an array is the cheapest map at 100,000 rows. */
  private donations: (CheckableDonation | undefined)[] = [];
  private keys: number[] = [];
  private labels: string[] = [];
  private ignoreMetadataKeys: string[] = [];

  reset(
    keys: number[],
    labels: string[],
    donations: readonly (CheckableDonation | undefined)[],
    ignoreMetadataKeys: string[],
  ): void {
    this.donations = [];
    keys.forEach((key, i) => (this.donations[key] = donations[i]));
    this.keys = keys;
    this.labels = labels;
    this.ignoreMetadataKeys = ignoreMetadataKeys;
  }

  /** Applies a request and checks the rows as they now stand. */
  handle(message: AcrossRowsRequest): AcrossRowsReply {
    if (message.type === 'reset') {
      this.reset(message.keys, message.labels, message.donations, message.ignoreMetadataKeys);
    } else {
      if (message.keys) this.keys = message.keys;
      if (message.labels) this.labels = message.labels;
      for (const [key, donation] of message.changed) this.donations[key] = donation;
    }
    return { id: message.id, issues: this.check(), keys: this.keys };
  }

  check(): FileIssue[] {
    const labels = this.labels;
    return checkFile(
      this.keys.map((k) => this.donations[k]),
      { ignoreMetadataKeys: this.ignoreMetadataKeys, rowLabel: (i) => labels[i] ?? String(i + 1) },
    );
  }
}
