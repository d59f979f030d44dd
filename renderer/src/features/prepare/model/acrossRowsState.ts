import {
  canonicalDonationText,
  checkFileDigests,
  emptyDigests,
  setDigest,
  type CheckableDonation,
  type FileDigests,
  type FileIssue,
} from '../../../../../shared/donation';
import { flaggedSinceWords, type UsualMove } from './usualMoves';

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
  /** Usual amounts that moved with this change, flagging or clearing rows that were not changed. */
  moves: UsualMove[];
}

const OUTLIER = 'AMOUNT_UNUSUALLY_HIGH';
const OUTLIER_FACTOR = 10;

/** The currency a row's amount counts in for the usual amount, with the amount; null when it does not count. */
function counted(digests: FileDigests, key: number): { currency: string; amount: number } | null {
  const amount = digests.amounts[key];
  const currency = digests.currencies[key];
  if (!digests.present[key] || typeof amount !== 'number' || !(amount > 0) || typeof currency !== 'string')
    return null;
  return { currency, amount };
}

/** Labels by currency of the rows that came to count, stopped counting, or changed amount. */
type Movers = Map<string, { joined: number[]; left: number[]; amended: number[] }>;

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
  /** What the last check found, to tell a move of the usual amount from a change of the row itself. */
  private usuals: Map<string, number> | null = null;
  private flagged = new Set<number>();
  /** Rows flagged because the usual amount moved: why, until they are cleared or it moves again. */
  private why = new Map<number, { currency: string; words: string }>();

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
    this.forgetMoves();
  }

  private forgetMoves(): void {
    this.usuals = null;
    this.flagged = new Set();
    this.why = new Map();
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
    this.forgetMoves();
  }

  /** Applies a request and checks the rows as they now stand. */
  handle(message: AcrossRowsRequest): AcrossRowsReply {
    if (message.type === 'reset') {
      this.reset(message.keys, message.labels, message.donations, message.ignoreMetadataKeys);
      return { id: message.id, issues: this.check(), keys: this.keys, moves: [] };
    }
    const movers: Movers = new Map();
    const moverOf = (currency: string) => {
      let m = movers.get(currency);
      if (!m) movers.set(currency, (m = { joined: [], left: [], amended: [] }));
      return m;
    };
    const changed = new Set<number>();
    const note = (key: number, before: ReturnType<typeof counted>, after: ReturnType<typeof counted>) => {
      changed.add(key);
      if (before && after && before.currency === after.currency) {
        if (before.amount !== after.amount) moverOf(after.currency).amended.push(key);
        return;
      }
      if (before) moverOf(before.currency).left.push(key);
      if (after) moverOf(after.currency).joined.push(key);
    };
    let oldLabels: Map<number, string> | null = null;
    if (message.keys) {
      // Rows removed no longer count; rows added count from now (their donations come as changed).
      const now = new Set(message.keys);
      const was = new Set(this.keys);
      oldLabels = new Map();
      this.keys.forEach((key, i) => {
        if (now.has(key)) return;
        oldLabels?.set(key, this.labels[i] ?? String(i + 1));
        note(key, counted(this.digests, key), null);
      });
      for (const key of message.keys) if (!was.has(key)) changed.add(key);
      this.keys = message.keys;
    }
    if (message.labels) this.labels = message.labels;
    for (const [key, donation] of message.changed) {
      // A row added since the last check did not count before, whatever its digest held.
      const before = changed.has(key) ? null : counted(this.digests, key);
      this.donations[key] = donation;
      setDigest(this.digests, key, donation);
      note(key, before, counted(this.digests, key));
    }
    const usualsBefore = this.usuals;
    const flaggedBefore = this.flagged;
    const issues = this.check();
    const moves = usualsBefore
      ? this.movesSince(usualsBefore, flaggedBefore, changed, movers, oldLabels)
      : [];
    return { id: message.id, issues: this.withWhy(issues), keys: this.keys, moves };
  }

  /** The usual amounts that moved and the rows, not changed themselves, they flagged or cleared. */
  private movesSince(
    usualsBefore: Map<string, number>,
    flaggedBefore: Set<number>,
    changed: Set<number>,
    movers: Movers,
    oldLabels: Map<number, string> | null,
  ): UsualMove[] {
    const usualsNow = this.usuals ?? new Map<string, number>();
    const currencies = new Set([...usualsBefore.keys(), ...usualsNow.keys()]);
    const moves: UsualMove[] = [];
    let position: Map<number, number> | null = null;
    const positionOf = () => (position ??= new Map(this.keys.map((k, i) => [k, i])));
    const label = (key: number) => {
      const at = positionOf().get(key);
      return at === undefined ? (oldLabels?.get(key) ?? '(removed)') : (this.labels[at] ?? String(at + 1));
    };
    const currencyOf = (key: number) => this.digests.currencies[key];
    for (const currency of currencies) {
      const before = usualsBefore.get(currency);
      const now = usualsNow.get(currency);
      if (before === now) continue;
      const more = [...this.flagged].filter(
        (k) => !flaggedBefore.has(k) && !changed.has(k) && currencyOf(k) === currency,
      );
      const fewer = [...flaggedBefore].filter(
        (k) => !this.flagged.has(k) && !changed.has(k) && currencyOf(k) === currency,
      );
      // The usual amount moves, whoever says so, and takes the reasons of earlier moves with it.
      for (const [key, why] of this.why) if (why.currency === currency) this.why.delete(key);
      if (more.length === 0 && fewer.length === 0) continue;
      const by = movers.get(currency) ?? { joined: [], left: [], amended: [] };
      const move: UsualMove = {
        currency,
        before,
        now,
        factor: OUTLIER_FACTOR,
        more: more.sort((a, b) => (positionOf().get(a) ?? 0) - (positionOf().get(b) ?? 0)).map(label),
        fewer: fewer.sort((a, b) => (positionOf().get(a) ?? 0) - (positionOf().get(b) ?? 0)).map(label),
        joined: by.joined.map(label),
        left: by.left.map(label),
        amended: by.amended.map(label),
      };
      const words = flaggedSinceWords(move);
      if (words) for (const key of more) this.why.set(key, { currency, words });
      moves.push(move);
    }
    return moves;
  }

  /** The warnings of rows flagged because the usual amount moved say so; rows cleared forget why. */
  private withWhy(issues: FileIssue[]): FileIssue[] {
    for (const key of this.why.keys()) if (!this.flagged.has(key)) this.why.delete(key);
    if (this.why.size === 0) return issues;
    return issues.map((issue) => {
      if (issue.code !== OUTLIER) return issue;
      const why = this.why.get(this.keys[issue.row] as number);
      return why ? { ...issue, message: `${issue.message} ${why.words}` } : issue;
    });
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
    const usuals = new Map<string, number>();
    const issues = checkFileDigests(
      keys.length,
      digests,
      (i) => canonicalDonationText(this.donationAt(keys[i] as number), { ignoreMetadataKeys }),
      {
        ignoreMetadataKeys,
        rowLabel: (i) => labels[i] ?? String(i + 1),
        usuals,
        outlierFactor: OUTLIER_FACTOR,
      },
    );
    this.usuals = usuals;
    this.flagged = new Set(issues.filter((i) => i.code === OUTLIER).map((i) => keys[i.row] as number));
    return issues;
  }
}
