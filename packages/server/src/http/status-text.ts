import type * as Http from 'node:http';
import { createRequire } from 'node:module';

/**
 * node:http reached through `require`, never `import … from 'node:http'`: in Node 24 an ES import of
 * node:http builds the module's whole namespace, whose WebSocket, CloseEvent and MessageEvent exports
 * load Node's own copy of undici (745 KB of source, its web streams and fetch) into every gateway
 * process, 14 MB of RSS that nothing here uses (the relay has undici from npm). Fastify already loads
 * node:http through `require`, so this costs nothing more.
 */
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof Http;

/** The reason phrase of an HTTP status ("Too Many Requests"), or '' for a code without one. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? '';
}
