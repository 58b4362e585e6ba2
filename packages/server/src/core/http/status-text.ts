import type * as Http from 'node:http';
import { createRequire } from 'node:module';

/**
 * node:http reached through `require`, never `import … from 'node:http'`: in Node 24 an ES import of
 * node:http builds the module's whole namespace, whose WebSocket, CloseEvent and MessageEvent exports
 * load Node's own copy of undici (745 KB of source and its fetch) into every gateway process, which
 * nothing here uses (the relay has undici from npm). An idle gateway process: about 2 MB less RSS
 * (115.6 → 113.6 MB, mean of three starts each; 14 MB in a bare Node process, but the web streams it
 * also brings come with npm undici anyway). Fastify already loads node:http through `require`, so
 * this costs nothing more.
 */
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof Http;

/** The reason phrase of an HTTP status ("Too Many Requests"), or '' for a code without one. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? '';
}
