import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { matchedRoute, registerMatchedRoute } from './matched-route.ts';

/** Counts the reads of Fastify's `routeOptions` getter on this one request. */
function countRouteOptionReads(request: FastifyRequest): () => number {
  let reads = 0;
  let descriptor: PropertyDescriptor | undefined;
  for (let prototype: object | null = Object.getPrototypeOf(request); !descriptor && prototype; prototype = Object.getPrototypeOf(prototype))
    descriptor = Object.getOwnPropertyDescriptor(prototype, 'routeOptions');
  Object.defineProperty(request, 'routeOptions', {
    get() {
      reads += 1;
      return descriptor?.get?.call(this);
    },
  });
  return () => reads;
}

describe('matchedRoute', () => {
  it("gives the matched pattern and declared config, reading Fastify's routeOptions once per request", async () => {
    const app = Fastify();
    registerMatchedRoute(app);
    const seen: Array<{ url: string | undefined; access: string | undefined; reads: number }> = [];
    app.addHook('onRequest', (request, _reply, done) => {
      const reads = countRouteOptionReads(request);
      const first = matchedRoute(request);
      matchedRoute(request);
      seen.push({ url: first.url, access: matchedRoute(request).access, reads: reads() });
      done();
    });
    app.get('/api/things/:id', { config: { access: 'admin' } }, async () => 'thing');
    expect((await app.inject({ url: '/api/things/7' })).body).toBe('thing');
    // An unknown path: the not-found route, which has no pattern.
    await app.inject({ url: '/nowhere' });
    expect(seen).toEqual([
      { url: '/api/things/:id', access: 'admin', reads: 1 },
      { url: undefined, access: undefined, reads: 1 },
    ]);
    await app.close();
  });
});
