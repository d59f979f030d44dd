import {
  canonicalDonationText,
  checkFileDigests,
  emptyDigests,
  setDigest,
  type CheckableDonation,
  type FileDigests,
  type FileIssue,
} from '../../../../../shared/donation';

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

/**
 * What the worker keeps of every row for the checks across rows: a digest (donor, recipient,
 * currency, amount) by row key, and the donation itself for rows it was given. Rows known only by
 * their digest (checked in the import worker) have their donation worked out again by `donationOf`
 * when it is needed, which is only for a row whose digest matches another's.
 */
export class AcrossRowsState {
  private digests: FileDigests = emptyDigests();
  private donations: (CheckableDonation | undefined)[] = [];
  private keys: number[] = [];
  private labels: string[] = [];
  private ignoreMetadataKeys: string[] = [];

  constructor(private readonly donationOf?: (key: number) => CheckableDonation | undefined) {}

  reset(
    keys: number[],
    labels: string[],
    donations: readonly (CheckableDonation | undefined)[],
    ignoreMetadataKeys: string[],
  ): void {
    this.digests = emptyDigests();
    this.donations = [];
    keys.forEach((key, i) => {
      this.donations[key] = donations[i];
      setDigest(this.digests, key, donations[i]);
    });
    this.keys = keys;
    this.labels = labels;
    this.ignoreMetadataKeys = ignoreMetadataKeys;
  }

  /** Rows known by their digests (indexed by key); their donations come from `donationOf`. */
  resetFromDigests(
    keys: number[],
    labels: string[],
    digests: FileDigests,
    ignoreMetadataKeys: string[],
  ): void {
    this.digests = digests;
    this.donations = [];
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
      for (const [key, donation] of message.changed) {
        this.donations[key] = donation;
        setDigest(this.digests, key, donation);
      }
    }
    return { id: message.id, issues: this.check(), keys: this.keys };
  }

  private donationAt(key: number): CheckableDonation | undefined {
    return key in this.donations ? this.donations[key] : this.donationOf?.(key);
  }

  check(): FileIssue[] {
    const { keys, labels, ignoreMetadataKeys } = this;
    // The checks go by position; the digests are by key, which is the same thing until rows move.
    let digests = this.digests;
    if (!keys.every((key, i) => key === i)) {
      digests = emptyDigests();
      keys.forEach((key, i) => {
        digests.present[i] = this.digests.present[key] === true;
        digests.donors[i] = this.digests.donors[key];
        digests.recipients[i] = this.digests.recipients[key];
        digests.currencies[i] = this.digests.currencies[key];
        digests.amounts[i] = this.digests.amounts[key];
      });
    }
    return checkFileDigests(
      keys.length,
      digests,
      (i) => canonicalDonationText(this.donationAt(keys[i] as number), { ignoreMetadataKeys }),
      { ignoreMetadataKeys, rowLabel: (i) => labels[i] ?? String(i + 1) },
    );
  }
}
