import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  checkInput,
  dispatchChecked,
  type ChannelName,
  type DeskErrorCode,
  type Services,
} from '../../shared/contract';
import { CALL_WITH_BYTES_TYPE, decodeCallWithBytes } from '../../shared/contract/callBody';
import type { EventBus } from '../services/core/eventBus';
import { CONTENT_SECURITY_POLICY } from '../services/core/contentSecurityPolicy';

export const SECRET_HEADER = 'x-desk-secret';
/** The largest request body one call may send (a new workspace's rows travel in one body). */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;
/**
 * The most request-body bytes the bridge holds at once across every call in flight. Beyond it a call
 * is answered 503 at once (try again shortly) instead of being buffered: twenty large bodies sent
 * together must not take the bridge's memory, whoever sends them.
 */
export const MAX_BUFFERED_BYTES = 512 * 1024 * 1024;

export interface BridgeOptions {
  services: Services;
  events: EventBus;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** The app's icon, answered at /favicon.ico (browsers ask for it on every page load). */
  iconFile?: string;
  port?: number;
  /** Fixed secret for tests; otherwise a new random one per launch. */
  secret?: string;
  onUnexpected?: (channel: string, error: unknown) => void;
  /** Limits, lowered by tests; the defaults are MAX_BODY_BYTES and MAX_BUFFERED_BYTES. */
  limits?: { bodyBytes?: number; bufferedBytes?: number };
}

export interface RunningBridge {
  port: number;
  secret: string;
  /** The address to open: the secret travels in the fragment, which browsers never send to a server. */
  url: string;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

function sameSecret(given: string | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function refuse(res: ServerResponse, status: number, code: DeskErrorCode, message: string): void {
  send(res, status, JSON.stringify({ ok: false, error: { code, message } }));
}

/** Why a body was not read: the caller answers each with its own status. */
class BodyRefused extends Error {
  constructor(readonly status: 400 | 413 | 503) {
    super(`body refused (${status})`);
  }
}

/**
 * Bytes held for request bodies across every call in flight. A call reserves what it declares before
 * anything is allocated (or piece by piece without a Content-Length), and gives it back when its body
 * has been handed on or refused.
 */
export class ByteBudget {
  private held = 0;
  constructor(readonly limit: number) {}
  get inUse(): number {
    return this.held;
  }
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }
  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

/**
 * The request body. With a Content-Length (fetch always sends one for a byte body) each piece is
 * copied into place as it arrives: a new workspace's rows are tens of megabytes, and copying them all
 * at once after the last piece put that copy, and a second buffer of that size, on the import's path.
 * `reserve` is called with each amount to be held; the caller gives the total back when done.
 */
async function readBody(
  req: IncomingMessage,
  maxBytes: number,
  reserve: (bytes: number) => boolean,
): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (req.headers['content-length'] !== undefined && Number.isSafeInteger(declared) && declared >= 0) {
    if (declared > maxBytes) throw new BodyRefused(413);
    if (!reserve(declared)) throw new BodyRefused(503);
    const body = Buffer.allocUnsafe(declared);
    let size = 0;
    for await (const chunk of req) {
      const piece = chunk as Buffer;
      if (size + piece.length > declared) throw new BodyRefused(400);
      piece.copy(body, size);
      size += piece.length;
    }
    if (size !== declared) throw new BodyRefused(400);
    return body;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const piece = chunk as Buffer;
    size += piece.length;
    if (size > maxBytes) throw new BodyRefused(413);
    if (!reserve(piece.length)) throw new BodyRefused(503);
    chunks.push(piece);
  }
  return Buffer.concat(chunks);
}

/** The path's own text, or null when a percent escape in it is broken ("/a%ZZ", "/%"). */
function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/**
 * The local bridge: the app in any browser on this computer. Binds 127.0.0.1 only; every API call
 * must carry the per-launch secret; Host and Origin must be this bridge's own, which stops other
 * web pages (including DNS-rebinding ones) from calling it.
 */
export async function startBridge(options: BridgeOptions): Promise<RunningBridge> {
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  let port = 0;
  const ownHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const ownOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const streams = new Set<ServerResponse>();
  const maxBodyBytes = options.limits?.bodyBytes ?? MAX_BODY_BYTES;
  const budget = new ByteBudget(options.limits?.bufferedBytes ?? MAX_BUFFERED_BYTES);

  const unsubscribe = options.events.subscribe((name, payload) => {
    const frame = `event: desk\ndata: ${JSON.stringify({ name, payload })}\n\n`;
    for (const res of streams) res.write(frame);
  });

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (pathname === '/favicon.ico' && options.iconFile) {
      const icon = await readFile(options.iconFile).catch(() => null);
      if (icon) {
        res.writeHead(200, { 'content-type': 'image/x-icon', 'cache-control': 'public, max-age=86400' });
        res.end(req.method === 'HEAD' ? undefined : icon);
        return;
      }
    }
    const root = normalize(options.rendererDir);
    const decoded = decodedPath(pathname);
    if (decoded === null) return refuse(res, 400, 'BAD_PATH', 'This address is not valid.');
    let file = normalize(join(root, decoded));
    if (!file.startsWith(root + sep) && file !== root) return refuse(res, 404, 'NOT_FOUND', 'Not found.');
    const info = await stat(file).catch(() => null);
    if (!info || info.isDirectory()) {
      // Client-side routes fall back to the app's page; a missing asset is a 404.
      if (extname(pathname)) return refuse(res, 404, 'NOT_FOUND', 'Not found.');
      file = join(root, 'index.html');
    }
    const body = await readFile(file).catch(() => null);
    if (!body) return refuse(res, 404, 'NOT_FOUND', 'The app is not built: run npm run build.');
    res.writeHead(200, {
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
      'cache-control': extname(file) === '.html' ? 'no-store' : 'public, max-age=3600',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    res.setHeader('cross-origin-resource-policy', 'same-origin');

    if (!ownHosts().has(req.headers.host ?? '')) {
      return refuse(res, 421, 'WRONG_HOST', 'This address is not served here.');
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (!url.pathname.startsWith('/api/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return refuse(res, 405, 'METHOD', 'Method not allowed.');
      return serveStatic(req, res, url.pathname);
    }

    const origin = req.headers.origin;
    if (origin !== undefined && !ownOrigins().has(origin)) {
      return refuse(res, 403, 'FORBIDDEN_ORIGIN', 'Calls from other web pages are refused.');
    }
    const fetchSite = req.headers['sec-fetch-site'];
    if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      return refuse(res, 403, 'FORBIDDEN_ORIGIN', 'Calls from other web pages are refused.');
    }
    const given = req.headers[SECRET_HEADER];
    if (!sameSecret(Array.isArray(given) ? given[0] : given, secret)) {
      return refuse(
        res,
        401,
        'NO_SECRET',
        'This call lacks the secret of this launch. Open the address the app printed.',
      );
    }

    if (url.pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      req.on('close', () => {
        clearInterval(keepAlive);
        streams.delete(res);
      });
      return;
    }

    const match = /^\/api\/call\/([A-Za-z0-9.]+)$/.exec(url.pathname);
    if (!match || req.method !== 'POST') return refuse(res, 404, 'NOT_FOUND', 'No such call.');
    const type = req.headers['content-type'] ?? '';
    // JSON, or JSON with byte attachments (a new workspace's rows: see callBody.ts).
    const withBytes = type === CALL_WITH_BYTES_TYPE;
    if (!type.startsWith('application/json') && !withBytes) {
      return refuse(res, 415, 'CONTENT_TYPE', 'Calls must be JSON.');
    }
    let input: unknown;
    let held = 0;
    try {
      const body = await readBody(req, maxBodyBytes, (bytes) => {
        if (!budget.take(bytes)) return false;
        held += bytes;
        return true;
      });
      if (withBytes) input = decodeCallWithBytes(body);
      else input = body.length ? JSON.parse(body.toString('utf8')) : {};
    } catch (e) {
      const status = e instanceof BodyRefused ? e.status : 400;
      if (status === 503) {
        res.setHeader('retry-after', '5');
        return refuse(
          res,
          503,
          'BRIDGE_BUSY',
          'The app is busy with other large requests. Try again in a moment.',
        );
      }
      if (status === 413) return refuse(res, 413, 'TOO_LARGE', 'The request is larger than the app accepts.');
      return refuse(res, 400, 'INVALID_INPUT', 'The request body is not valid JSON or is too large.');
    } finally {
      // The parsed input is what the call works on from here; the body's bytes are no longer held.
      budget.give(held);
    }
    // Input outside the channel's shape or limits (fifty million rows, a cell longer than Excel's)
    // is refused here, before any handler runs or anything is written.
    const checked = checkInput(match[1] as string, input);
    if (!checked.ok)
      return send(res, checked.error.code === 'INVALID_INPUT' ? 400 : 404, JSON.stringify(checked));
    const result = await dispatchChecked(
      options.services,
      match[1] as ChannelName,
      checked.value,
      { transport: 'bridge' },
      options.onUnexpected,
    );
    send(res, !result.ok && result.error.code === 'WORKSPACE_TOO_LARGE' ? 413 : 200, JSON.stringify(result));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      options.onUnexpected?.('bridge', e);
      if (!res.headersSent) refuse(res, 500, 'INTERNAL', 'The bridge failed to answer.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    secret,
    url: `http://127.0.0.1:${port}/#secret=${secret}`,
    close: async () => {
      unsubscribe();
      for (const res of streams) res.end();
      streams.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Browsers keep idle connections open; without this, closing waits for them to time out.
      server.closeAllConnections();
      await closed;
    },
  };
}
