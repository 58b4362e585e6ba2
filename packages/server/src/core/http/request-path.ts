import type { FastifyRequest } from 'fastify';

/**
 * The path a request names, read the way the router and browsers read it: query cut off,
 * percent-encoding decoded, repeated slashes collapsed, dot segments resolved, lower case. Used
 * where there is no matched route to ask (the not-found answer, the error dialect), so that
 * `/%61pi/x`, `//API/x` and `/x/../api/x` are all seen as console API paths. Access decisions never
 * use it: they read the matched route (see auth/authenticate.ts).
 */
export function normalisedPath(url: string): string {
  const raw = url.split('?')[0] ?? '';
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape stays as written; the router answers such a path with 404 anyway.
  }
  // Collapsed first: `//api/x` would otherwise be read as a host named "api".
  return new URL(decoded.replace(/[/\\]+/g, '/'), 'http://localhost').pathname.toLowerCase();
}

export function requestPath(request: FastifyRequest): string {
  return normalisedPath(request.url);
}

/** Console API paths answer with the JSON envelope, never with the console page. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}
