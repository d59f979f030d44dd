import { describe, expect, it } from 'vitest';
import type { Environments } from '../environments/environments';
import { createSearchServices } from './index';

/** A service whose every answer to these paths is the given status (with a JSON:API error body). */
function serviceAnswering(statusByPath: Record<string, number>) {
  const asked: string[] = [];
  const fetchImpl = (async (input: string | URL | Request) => {
    const url = new URL(String(input));
    asked.push(url.pathname);
    const status = statusByPath[url.pathname] ?? 500;
    return new Response(
      JSON.stringify({ errors: [{ status: String(status), code: 'X', title: 'No', detail: 'Not here.' }] }),
      { status, headers: { 'content-type': 'application/vnd.api+json' } },
    );
  }) as typeof fetch;
  const environments = {
    resolve: async () => ({
      info: {
        id: 'sandbox',
        label: 'Sandbox',
        baseUrl: 'https://service.example',
        tokenUrl: 'https://service.example/oauth2/token',
        programUrl: 'https://program.example',
        emulated: false,
      },
      tokens: { accessToken: async () => 'token', invalidate: () => undefined },
    }),
  } as unknown as Environments;
  const { handlers } = createSearchServices({ environments, fetchImpl });
  return { handlers, asked };
}

const call = <T>(handler: (input: never, context: never) => T | Promise<T>, input: unknown) =>
  Promise.resolve(handler(input as never, { transport: 'test' } as never));

describe('causes on a service that does not offer the look-ups', () => {
  it.each([404, 405, 501])(
    'says the type-ahead is not there (%i), so an id is typed in full',
    async (status) => {
      const { handlers, asked } = serviceAnswering({ '/autocomplete/causes': status });
      expect(await call(handlers['causes.autocomplete'], { q: 'food' })).toEqual({
        available: false,
        causes: [],
      });
      expect(asked).toEqual(['/autocomplete/causes']);
    },
  );

  it('passes other failures of the type-ahead on, rather than hiding them as "not offered"', async () => {
    const { handlers } = serviceAnswering({ '/autocomplete/causes': 403 });
    await expect(call(handlers['causes.autocomplete'], { q: 'food' })).rejects.toBeTruthy();
  });

  it.each([405, 501])(
    'leaves a cause id unchecked when the service cannot look causes up (%i)',
    async (status) => {
      const { handlers } = serviceAnswering({ '/causes/840-123456789': status });
      expect(await call(handlers['causes.check'], { recipientId: '840-123456789' })).toMatchObject({
        status: 'not-checked',
        label: null,
      });
    },
  );

  it('says a cause id is unknown when the service answers 404 for it', async () => {
    const { handlers } = serviceAnswering({ '/causes/840-123456789': 404 });
    expect(await call(handlers['causes.check'], { recipientId: '840-123456789' })).toMatchObject({
      status: 'unknown',
    });
  });
});
