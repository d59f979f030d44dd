/** Where the progress line goes: stderr, or a test's stand-in. */
export interface ProgressSink {
  write(text: string): void;
  /** A terminal: the line is rewritten in place; otherwise a line now and then. */
  isTTY: boolean;
}

/**
 * The progress line of a long check on stderr: which pass, how many rows, how far through the file.
 * On a terminal it is rewritten in place four times a second; elsewhere (with --progress) a line is
 * written every five seconds, so a log stays readable.
 */
export class ProgressLine {
  private last = 0;
  private shown = false;
  private rows = 0;

  constructor(
    private readonly sink: ProgressSink | undefined,
    private readonly fileName: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A row went by in the current pass. */
  row(): void {
    this.rows++;
  }

  /** A new pass begins. */
  start(): void {
    this.rows = 0;
  }

  update(stage: string, done: number, total: number, force = false): void {
    if (!this.sink) return;
    const now = this.now();
    if (!force && now - this.last < (this.sink.isTTY ? 250 : 5_000)) return;
    this.last = now;
    const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100;
    const text = `${stage} ${this.fileName}: ${this.rows.toLocaleString('en-US')} rows, ${percent}%`;
    if (this.sink.isTTY) this.sink.write(`\r${text}\u001b[K`);
    else this.sink.write(`${text}\n`);
    this.shown = true;
  }

  /** The line is cleared (on a terminal) before the results are written. */
  end(): void {
    if (this.sink?.isTTY && this.shown) this.sink.write('\r\u001b[K');
    this.shown = false;
  }
}
