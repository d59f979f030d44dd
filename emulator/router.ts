import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from './core';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  core: Core;
  apiBaseUrl: string;
  uploadBaseUrl: string;
  programUrl: string;
}

export interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  /** Service endpoints need a bearer token and meet injected faults; controls and program pages do not. */
  kind: 'service' | 'public' | 'control';
  handler: (ctx: RequestContext) => Promise<void> | void;
}

export function route(
  method: string,
  path: string,
  handler: Route['handler'],
  kind: Route['kind'] = 'service',
): Route {
  const keys: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        keys.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { method, pattern: new RegExp(`^${source}$`), keys, kind, handler };
}

export function matchRoute(
  routes: readonly Route[],
  method: string,
  pathname: string,
): { route: Route; params: Record<string, string> } | { methodNotAllowed: true } | undefined {
  let pathMatched = false;
  for (const candidate of routes) {
    const match = candidate.pattern.exec(pathname);
    if (!match) continue;
    pathMatched = true;
    if (candidate.method !== method) continue;
    const params: Record<string, string> = {};
    candidate.keys.forEach((key, i) => {
      params[key] = decodeURIComponent(match[i + 1] ?? '');
    });
    return { route: candidate, params };
  }
  return pathMatched ? { methodNotAllowed: true } : undefined;
}
