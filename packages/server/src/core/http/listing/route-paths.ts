/**
 * The classic console calls some routes with a trailing slash (`/api/token/`, `DELETE /api/token/1/`)
 * and clients written against new-api call them without; the router is strict, so both are registered.
 */
export function withAndWithoutSlash(path: string): string[] {
  return path.endsWith('/') ? [path, path.slice(0, -1)] : [path, `${path}/`];
}
