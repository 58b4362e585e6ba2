import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/**
 * undici's `Agent` and `request`, the only parts of it the server uses, loaded from their own files.
 * The package's index also loads fetch, WebSocket, EventSource, the cache stores, the mock agents and
 * every interceptor, which no server process runs: 10 MB of RSS in an empty Node process, about 2 MB
 * in a gateway process (whose other code already touches most of the same Node binary pages), so
 * 4 MB off the default tree (measured from /proc as `npm run bench:memory` does). The files are
 * undici's own, so the pool, the parser and the timeouts are exactly those of
 * `import { Agent, request } from 'undici'`; only the types come from the index. A later undici
 * that moves these files fails at start and in process-module-graphs.test.ts.
 */
const requireUndici = createRequire(import.meta.url);
const dispatcherClass = requireUndici('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
const dispatcherApi = requireUndici('undici/lib/api/index.js') as object;
const { parseURL } = requireUndici('undici/lib/core/util.js') as { parseURL: (url: string | URL) => URL };
const { getGlobalDispatcher } = requireUndici('undici/lib/global.js') as { getGlobalDispatcher: () => Undici.Dispatcher };

// What undici's index does before anything else: `request`, `stream`, `pipeline`… become methods of every dispatcher.
Object.assign(dispatcherClass.prototype, dispatcherApi);

export const Agent = requireUndici('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export type Agent = Undici.Agent;

/** undici's options of `request` (types/api.d.ts). */
type RequestOptions = { dispatcher?: Undici.Dispatcher } & Omit<Undici.Dispatcher.RequestOptions<null>, 'origin' | 'path' | 'method'> &
  Partial<Pick<Undici.Dispatcher.RequestOptions, 'method'>>;

/**
 * undici's `request(url, options)`: the URL's origin and path become the dispatch's, the method
 * defaults as undici's does, and the global dispatcher serves a call that names none (as the
 * index's `request` does; the server's callers pass neither `path` nor a callback).
 */
export function request(url: string | URL, options: RequestOptions = {}): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher = getGlobalDispatcher(), ...rest } = options;
  const target = parseURL(url);
  return dispatcher.request<null>({
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: options.method || (options.body ? 'PUT' : 'GET'),
  });
}
