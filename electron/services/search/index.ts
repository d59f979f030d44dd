import { z } from 'zod';
import type { ChannelName, Handler } from '../../../shared/contract';
import {
  searchResponseSchema,
  type CannotReceive,
  type searchChannels,
} from '../../../shared/contract/searchChannels';
import { recipientShape } from '../../../shared/donation';
import { DeskFailure } from '../../../shared/result';
import type { Environments } from '../environments/environments';
import { INTERACTIVE_RETRY, ServiceClient } from '../api/serviceClient';
import { imageDataUrl } from './imageDataUrl';

type SearchChannel = keyof typeof searchChannels & ChannelName;

export interface SearchDeps {
  environments: Environments;
  fetchImpl?: typeof fetch;
  /**
   * Causes this app has seen declined because they cannot take money, by cause id (from the
   * donations it follows): suggestions and checks say so before a donation is sent to one.
   */
  causesThatCannotReceive?: () => Promise<ReadonlyMap<string, CannotReceive>>;
}

export interface SearchServices {
  handlers: { [C in SearchChannel]: Handler<C> };
}

const autocompleteSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      attributes: z.object({
        name: z.string(),
        city: z.string().nullish(),
        country: z.string().nullish(),
      }),
    }),
  ),
});

/** Status codes that say the service has no such endpoint (rather than no such cause). */
const NOT_OFFERED = new Set([404, 405, 501]);
const statusOf = (e: unknown): number | undefined =>
  e instanceof DeskFailure ? (e.details as { status?: number } | undefined)?.status : undefined;
const causeSchema = z.object({
  data: z.object({
    id: z.string(),
    attributes: z.object({
      name: z.string(),
      projects: z
        .array(z.object({ id: z.string(), name: z.string(), recipientId: z.string().optional() }))
        .nullish(),
    }),
  }),
});

/** Coordinates as the service wants them: `<latitude>,<longitude>` in plain decimal degrees. */
export function searchLocationParam(near: { latitude: number; longitude: number }): string {
  const fmt = (n: number) => String(Math.round(n * 1e6) / 1e6);
  return `${fmt(near.latitude)},${fmt(near.longitude)}`;
}

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

export function createSearchServices(deps: SearchDeps): SearchServices {
  const api = new ServiceClient(() => deps.environments.resolve(), {
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
    retry: INTERACTIVE_RETRY,
  });

  const cannotReceive = async (): Promise<ReadonlyMap<string, CannotReceive>> =>
    // What is known locally never stops a look-up: without it the suggestions simply carry no warning.
    (await deps.causesThatCannotReceive?.().catch(() => null)) ?? new Map<string, CannotReceive>();
  const causeIdOf = (recipientId: string) => recipientId.split('/')[0] ?? recipientId;

  const readCause = (id: string) =>
    api.get({
      name: 'reading a cause (GET /causes/{id})',
      method: 'GET',
      path: `/causes/${encodeURIComponent(id)}`,
      schema: causeSchema,
    });

  const handlers: SearchServices['handlers'] = {
    'causes.autocomplete': async ({ q }) => {
      try {
        const answer = await api.get({
          name: 'looking up causes (GET /autocomplete/causes)',
          method: 'GET',
          path: `/autocomplete/causes?${new URLSearchParams({ q })}`,
          schema: autocompleteSchema,
        });
        const unable = await cannotReceive();
        return {
          available: true,
          causes: answer.data.map((c) => ({
            id: c.id,
            name: c.attributes.name,
            city: c.attributes.city ?? null,
            country: c.attributes.country ?? null,
            cannotReceive: unable.get(causeIdOf(c.id)) ?? null,
          })),
        };
      } catch (e) {
        // A service without the type-ahead: the field still takes an id typed in full.
        if (NOT_OFFERED.has(statusOf(e) ?? 0)) return { available: false, causes: [] };
        throw e;
      }
    },
    'causes.check': async ({ recipientId }) => {
      const shape = recipientShape(recipientId);
      const [causeId = '', projectId] = recipientId.split('/');
      if (shape !== 'cause' && shape !== 'cause/project') {
        // Portfolios (and shapes that are not cause ids) have no endpoint to ask.
        return {
          status: 'not-checked' as const,
          label: null,
          message:
            'Not a cause id, so it cannot be looked up; the service checks it when the donation is sent.',
          cannotReceive: null,
        };
      }
      let cause;
      try {
        cause = await readCause(causeId);
      } catch (e) {
        const status = statusOf(e);
        if (status === 404) {
          return {
            status: 'unknown' as const,
            label: null,
            message: `The service does not know a cause ${causeId}. Check the id, or pick the cause from the list.`,
            cannotReceive: null,
          };
        }
        if (status === 405 || status === 501) {
          return {
            status: 'not-checked' as const,
            label: null,
            message: 'This service cannot look causes up; it checks the id when the donation is sent.',
            cannotReceive: (await cannotReceive()).get(causeId) ?? null,
          };
        }
        throw e;
      }
      const name = cause.data.attributes.name;
      const unable = (await cannotReceive()).get(causeId) ?? null;
      if (projectId === undefined) {
        return {
          status: 'found' as const,
          label: name,
          message: `${name} (${causeId})`,
          cannotReceive: unable,
        };
      }
      const project = (cause.data.attributes.projects ?? []).find(
        (p) => p.id === projectId || p.recipientId === recipientId,
      );
      if (!project) {
        return {
          status: 'unknown-project' as const,
          label: name,
          message: `${name} has no project ${projectId} at the service.`,
          cannotReceive: unable,
        };
      }
      return {
        status: 'found' as const,
        label: `${project.name} (${name})`,
        message: `${project.name}, a project of ${name}`,
        cannotReceive: unable,
      };
    },
    'search.run': async ({ q, near, autocorrect }) => {
      const started = Date.now();
      const params = new URLSearchParams({ q });
      if (near) params.set('search_location', searchLocationParam(near));
      if (autocorrect) params.set('autocorrect', 'true');
      const answer = await api.get({
        name: 'searching giving opportunities (GET /search/givingopportunities)',
        method: 'GET',
        path: `/search/givingopportunities?${params}`,
        schema: searchResponseSchema,
      });
      const info = await api.baseInfo();
      return {
        results: answer.giving_opportunities,
        programUrl: info.programUrl,
        elapsedMs: Date.now() - started,
      };
    },
    'search.image': async ({ path }) => {
      const info = await api.baseInfo();
      return { dataUrl: await imageDataUrl(api, info.programUrl, path) };
    },
    'search.recipient': async ({ causeName, projectName }) => {
      // Search results name causes and projects but carry no ids; the type-ahead and cause endpoints do.
      const matches = await api.get({
        name: 'looking up a cause (GET /autocomplete/causes)',
        method: 'GET',
        path: `/autocomplete/causes?${new URLSearchParams({ q: causeName })}`,
        schema: autocompleteSchema,
      });
      const cause = matches.data.find((c) => sameName(c.attributes.name, causeName));
      if (!cause) {
        throw new DeskFailure(
          'NOT_FOUND',
          `The service did not find a cause named “${causeName}”, so its id is unknown. Copy the id from the cause’s page instead.`,
        );
      }
      const unable = (await cannotReceive()).get(cause.id) ?? null;
      if (!projectName) return { recipientId: cause.id, label: cause.attributes.name, cannotReceive: unable };
      const details = await readCause(cause.id);
      const project = (details.data.attributes.projects ?? []).find((p) => sameName(p.name, projectName));
      if (!project) {
        throw new DeskFailure(
          'NOT_FOUND',
          `The cause “${cause.attributes.name}” has no project named “${projectName}” at the service.`,
        );
      }
      return {
        recipientId: project.recipientId ?? `${cause.id}/${project.id}`,
        label: `${project.name} (${cause.attributes.name})`,
        cannotReceive: unable,
      };
    },
  };
  return { handlers };
}
