import type { FastifyInstance } from 'fastify';
import type { Paging } from './listing/page-query.ts';

/** Who may call a route. Every `/api` route declares one; the authorization matrix test reads them. */
export type Access = 'public' | 'user' | 'admin' | 'root';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
  /** Set on list routes (their page parser reads it), so tests can reach every list. */
  paging?: Paging;
}

/**
 * Whether a route pattern (as registered, never a request's URL text) belongs to the console API.
 * Case-insensitive so that a route registered as `/API/…` is not exempt either.
 */
export function isApiRoute(pattern: string | undefined): boolean {
  return pattern !== undefined && /^\/api(\/|$)/i.test(pattern);
}

/**
 * Collects the route table and refuses, at start-up, an `/api` route registered without a declared
 * access level: a forgotten permission is a crash in every test run, not a hole in production.
 */
export function trackRouteAccess(app: FastifyInstance): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access level`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const paging = route.config?.paging;
      routes.push({ method, url: route.url, access, ...(paging ? { paging } : {}) });
    }
  });
  return routes;
}
