import { TeamNewsListener, type TeamNews } from './teamNews';
import type { TeamDatabase } from './teamTypes';

export interface TeamNewsHubOptions {
  /** The team database in force now (null alone, or when its address cannot be used). */
  current(): TeamDatabase | null;
  /** What this computer does with each piece of news (read again, resume, tell the renderer). */
  onNews?(news: TeamNews): void;
  /** Delays between tries to listen again after a drop. */
  retry?: { baseMs: number; maxMs: number };
}

/**
 * This computer's ear on the team database: a listener for the database in force, opened anew when
 * the address changes (Settings) and closed when working alone or on shutdown. Waits (the command
 * line's --wait) may sleep on next(), which ends at the first news or at its time-out, whichever
 * comes first: polling stays the fallback.
 */
export class TeamNewsHub {
  private db: TeamDatabase | null = null;
  private listener: TeamNewsListener | null = null;
  private waiters = new Set<(news: TeamNews | null) => void>();
  private closed = false;

  constructor(private readonly options: TeamNewsHubOptions) {}

  /** Listens to the database in force (nothing when alone or already listening to it). */
  async ensure(): Promise<void> {
    if (this.closed) return;
    let db: TeamDatabase | null;
    try {
      db = this.options.current();
    } catch {
      db = null;
    }
    // Already listening to it, or trying again after its own back-off: nothing to do.
    if (db === this.db) return;
    const old = this.listener;
    this.db = db;
    this.listener = null;
    void old?.close();
    if (!db?.newsClient) return;
    const make = db.newsClient.bind(db);
    this.listener = new TeamNewsListener({
      client: make,
      onNews: (news) => this.hear(news),
      ...(this.options.retry ? { retry: this.options.retry } : {}),
    });
    await this.listener.start();
  }

  /** Whether a connection listens now (false: only polling brings news). */
  listening(): boolean {
    return this.listener?.listening ?? false;
  }

  private hear(news: TeamNews): void {
    for (const wake of [...this.waiters]) wake(news);
    this.waiters.clear();
    try {
      this.options.onNews?.(news);
    } catch {
      // A reaction that failed does not stop the news.
    }
  }

  /** The next piece of news, or null after `timeoutMs` (or when closed, or aborted). */
  next(timeoutMs: number, signal?: AbortSignal): Promise<TeamNews | null> {
    if (this.closed || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (news: TeamNews | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        this.waiters.delete(done);
        resolve(news);
      };
      const aborted = () => done(null);
      const timer = setTimeout(() => done(null), timeoutMs);
      signal?.addEventListener('abort', aborted);
      this.waiters.add(done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of [...this.waiters]) wake(null);
    this.waiters.clear();
    const listener = this.listener;
    this.listener = null;
    this.db = null;
    await listener?.close();
  }
}
