import type pg from 'pg';
import { backoffDelay } from '../api/backoff';

/*
 * Team mode: the team's news at once. The team database notifies `desk_news` when an upload is
 * submitted, decided, voided or sent, and when a bulk a colleague sent moves (R__team_news.sql). One
 * dedicated connection per computer listens (never a pooled one: LISTEN belongs to a session); when
 * it drops it is opened again after a back-off, and meanwhile polling carries on as before. A
 * notification names only the upload and what happened to it: whoever hears it reads the rest.
 */

export const NEWS_CHANNEL = 'desk_news';

export const TEAM_NEWS_KINDS = ['submitted', 'approved', 'rejected', 'void', 'sent', 'bulk'] as const;
export type TeamNewsKind = (typeof TEAM_NEWS_KINDS)[number];

/** One piece of news: what happened to which upload, or `resync` after the listener was away. */
export type TeamNews = { kind: TeamNewsKind; upload: string } | { kind: 'resync'; upload: null };

/** A notification's payload as news; null when it is not one this app knows. */
export function parseNews(payload: string | undefined): TeamNews | null {
  if (!payload) return null;
  try {
    const value = JSON.parse(payload) as { kind?: unknown; upload?: unknown };
    if (
      typeof value.upload === 'string' &&
      value.upload.length > 0 &&
      (TEAM_NEWS_KINDS as readonly unknown[]).includes(value.kind)
    ) {
      return { kind: value.kind as TeamNewsKind, upload: value.upload };
    }
  } catch {
    // Not JSON: not ours.
  }
  return null;
}

export interface TeamNewsListenerOptions {
  /** A new, unconnected client with the pool's address and TLS settings. */
  client(): pg.Client;
  /** Each piece of news, and `resync` when listening again after a drop (what was missed meanwhile). */
  onNews(news: TeamNews): void;
  /** Told true when listening, false when the connection dropped (polling carries on). */
  onListening?(listening: boolean): void;
  /** Delays between tries to listen again (default 1 s growing to 30 s). */
  retry?: { baseMs: number; maxMs: number };
}

/**
 * The one connection that listens. start() connects and LISTENs; a failure or a drop (the server
 * restarted, the backend was ended, the network went) closes it and tries again after a back-off,
 * for as long as the listener is not closed.
 */
export class TeamNewsListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  private everListened = false;
  private connecting: Promise<void> | null = null;
  /** Whether the connection is listening now. */
  listening = false;

  constructor(private readonly options: TeamNewsListenerOptions) {}

  /** Connects and listens (resolves once listening, or once the first try failed). */
  start(): Promise<void> {
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    if (this.closed || this.client) return;
    const client = this.options.client();
    this.client = client;
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      if (this.listening) {
        this.listening = false;
        this.options.onListening?.(false);
      }
      this.again();
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => {
      if (message.channel !== NEWS_CHANNEL) return;
      const news = parseNews(message.payload);
      if (news) this.options.onNews(news);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NEWS_CHANNEL}`);
    } catch {
      drop();
      return;
    }
    if (this.closed || dropped) {
      drop();
      return;
    }
    this.failures = 0;
    this.listening = true;
    this.options.onListening?.(true);
    // Back after a drop: what happened meanwhile was not heard, so it is read now.
    if (this.everListened) this.options.onNews({ kind: 'resync', upload: null });
    this.everListened = true;
  }

  private again(): void {
    if (this.closed || this.timer) return;
    const retry = this.options.retry ?? { baseMs: 1_000, maxMs: 30_000 };
    const delay = backoffDelay(this.failures++, retry);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.start();
    }, delay);
    this.timer.unref?.();
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => undefined);
  }
}
