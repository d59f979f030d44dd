import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueToken, isOAuthError, type TokenContext, verifyBearer } from './auth';
import { runBulkStep } from './bulk';
import { controlRoutes } from './controls';
import { Core } from './core';
import { ApiError, sendError, sendJson } from './http';
import { locationRoutes } from './locations';
import { programRoutes } from './programPages';
import { type RequestContext, type Route, matchRoute, route } from './router';
import { serviceRoutes } from './serviceRoutes';
import { handleUploadHost } from './uploadHost';
import type { RecipientCheck } from './directory';

export interface EmulatorOptions {
  port?: number;
  uploadPort?: number;
  timeScale?: number;
  /** `validation`: a bulk file's validation refuses recipients not in the directory (default `processing`). */
  recipientCheck?: RecipientCheck;
  seed?: number;
  dataDir?: string;
  clientId?: string;
  clientSecret?: string;
  quiet?: boolean;
}

export interface RunningEmulator {
  apiBaseUrl: string;
  tokenUrl: string;
  uploadBaseUrl: string;
  programUrl: string;
  /** Virtual seconds per real second (0: frozen). */
  timeScale: number;
  clientId: string;
  clientSecret: string;
  now(): Date;
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_CLIENT_ID = 'demo-client';
export const DEFAULT_CLIENT_SECRET = 'demo-secret';
export const DEFAULT_SEED = 42;

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const clientSecret = options.clientSecret ?? DEFAULT_CLIENT_SECRET;
  const timeScale = options.timeScale ?? 1;
  if (!Number.isFinite(timeScale) || timeScale < 0) throw new Error('timeScale must be a number >= 0');
  const recipientCheck = options.recipientCheck ?? 'processing';
  if (recipientCheck !== 'processing' && recipientCheck !== 'validation') {
    throw new Error('recipientCheck must be processing or validation');
  }
  const core = new Core({
    seed: options.seed ?? DEFAULT_SEED,
    timeScale,
    recipientCheck,
    clientId,
    clientSecret,
    quiet: options.quiet ?? false,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  core.runBulkStep = (bulk) => runBulkStep(core, bulk);

  let jti = 0;
  const tokens: TokenContext = {
    signingKey: core.signingKey,
    clientId,
    clientSecret,
    nowMs: () => core.nowMs(),
    generation: () => core.tokenGeneration,
    nextJti: () => `${Date.now().toString(36)}-${(jti += 1)}`,
  };

  const urls = { api: '', upload: '', program: '' };
  const routes: Route[] = [
    route('POST', '/oauth2/token', () => undefined),
    ...serviceRoutes,
    ...locationRoutes,
    ...programRoutes,
    ...controlRoutes,
  ];

  async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://api.local');
    try {
      const matched = matchRoute(routes, req.method ?? 'GET', url.pathname);
      if (!matched) throw ApiError.single(404, 'NOT_FOUND', 'Not found', `No endpoint at ${url.pathname}.`);
      if ('methodNotAllowed' in matched) {
        throw ApiError.single(
          405,
          'METHOD_NOT_ALLOWED',
          'Method not allowed',
          `${req.method ?? ''} is not allowed here.`,
        );
      }
      core.runDue();
      if (matched.route.kind === 'service') {
        const settings = core.faults.settings;
        if (settings.latencyMs > 0) await sleep(settings.latencyMs);
        const decision = core.faults.decide(core.nowMs());
        if (decision.kind === 'drop') {
          req.socket.destroy();
          return;
        }
        if (decision.kind === 'status') {
          const error = ApiError.single(decision.status, decision.code, decision.title, decision.detail);
          throw new ApiError(
            decision.status,
            error.errors,
            decision.retryAfter !== undefined ? { 'Retry-After': String(decision.retryAfter) } : {},
          );
        }
        if (url.pathname === '/oauth2/token') {
          sendJson(res, 200, await issueToken(req, tokens), 'application/json');
          return;
        }
        verifyBearer(req, tokens);
      }
      const ctx: RequestContext = {
        req,
        res,
        url,
        params: matched.params,
        core,
        apiBaseUrl: urls.api,
        uploadBaseUrl: urls.upload,
        programUrl: urls.program,
      };
      await matched.route.handler(ctx);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      req.resume();
      if (isOAuthError(error)) {
        sendJson(
          res,
          error.status,
          { error: error.error, error_description: error.description },
          'application/json',
          {
            ...(error.status === 401 ? { 'WWW-Authenticate': 'Basic realm="emulator"' } : {}),
          },
        );
      } else if (error instanceof ApiError) {
        sendError(res, error);
      } else {
        if (!options.quiet) console.error('emulator: unexpected error', error);
        sendError(
          res,
          ApiError.single(500, 'INTERNAL_ERROR', 'Internal server error', 'Unexpected emulator error.'),
        );
      }
    }
  }

  const apiServer = createServer((req, res) => void handleApi(req, res));
  const uploadServer = createServer((req, res) => void handleUploadHost(core, req, res));
  const apiPort = await listen(apiServer, options.port ?? 0);
  let uploadPort: number;
  try {
    uploadPort = await listen(uploadServer, options.uploadPort ?? 0);
  } catch (error) {
    await closeServer(apiServer);
    throw error;
  }
  urls.api = `http://127.0.0.1:${apiPort}`;
  urls.upload = `http://127.0.0.1:${uploadPort}`;
  urls.program = `${urls.api}/program`;

  // With a running clock, bulk steps fall due between requests; run them so the saved state keeps up.
  const ticker =
    timeScale > 0
      ? setInterval(() => {
          try {
            core.runDue();
          } catch (error) {
            if (!options.quiet) console.error('emulator: background step failed', error);
          }
        }, 1000)
      : undefined;
  ticker?.unref();

  let closed = false;
  return {
    apiBaseUrl: urls.api,
    tokenUrl: `${urls.api}/oauth2/token`,
    uploadBaseUrl: urls.upload,
    programUrl: urls.program,
    timeScale,
    clientId,
    clientSecret,
    now: () => core.now(),
    advance: async (seconds: number) => {
      core.advance(seconds);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      if (ticker) clearInterval(ticker);
      await Promise.all([closeServer(apiServer), closeServer(uploadServer)]);
      core.save();
    },
  };
}
