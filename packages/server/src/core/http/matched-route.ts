import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What the router matched for a request: its pattern (`url`, undefined for no route) and its declared config (`access`, `paging`). */
export type MatchedRoute = FastifyRequest['routeOptions']['config'];

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `matchedRoute` on first use: see there. */
    matchedRouteConfig?: MatchedRoute | null;
  }
}

const noRoute = {} as MatchedRoute;

/**
 * The matched route's config, read once per request. Fastify's `request.routeOptions` builds a new
 * object of a dozen fields on every read, and a relay request read it in four hooks: the access
 * check, the second-factor guard, the relay's CORS and the address limits.
 */
export function matchedRoute(request: FastifyRequest): MatchedRoute {
  return (request.matchedRouteConfig ??= request.routeOptions.config ?? noRoute);
}

/** Declares the memo on every request, so the request objects keep one shape. Before any hook reads it. */
export function registerMatchedRoute(app: FastifyInstance): void {
  app.decorateRequest('matchedRouteConfig', null);
}
