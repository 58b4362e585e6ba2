import type { FastifyInstance } from 'fastify';

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
}

/**
 * Collects the route table and refuses, at start-up, an `/api` route registered without a declared
 * access level: a forgotten permission is a crash in every test run, not a hole in production.
 */
export function trackRouteAccess(app: FastifyInstance): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access level`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, access });
    }
  });
  return routes;
}
