import { z } from 'zod';
import type { ChannelName, Handler } from '../../../shared/contract';
import { searchResponseSchema, type searchChannels } from '../../../shared/contract/searchChannels';
import { DeskFailure } from '../../../shared/result';
import type { Environments } from '../environments';
import { ServiceApi } from '../locations/serviceApi';
import { imageDataUrl } from './imageDataUrl';

type SearchChannel = keyof typeof searchChannels & ChannelName;

export interface SearchDeps {
  environments: Environments;
  fetchImpl?: typeof fetch;
}

export interface SearchServices {
  handlers: { [C in SearchChannel]: Handler<C> };
}

const autocompleteSchema = z.object({
  data: z.array(z.object({ id: z.string(), attributes: z.object({ name: z.string() }) })),
});
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
  const api = new ServiceApi(() => deps.environments.resolve(), deps.fetchImpl);

  const handlers: SearchServices['handlers'] = {
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
      if (!projectName) return { recipientId: cause.id, label: cause.attributes.name };
      const details = await api.get({
        name: 'reading a cause (GET /causes/{id})',
        method: 'GET',
        path: `/causes/${encodeURIComponent(cause.id)}`,
        schema: causeSchema,
      });
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
      };
    },
  };
  return { handlers };
}
