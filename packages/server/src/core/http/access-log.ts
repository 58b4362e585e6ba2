import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { Logger } from '../platform/logger.ts';
import { matchedRoute } from './matched-route.ts';

/** pino's numbers for `info` and `debug`, the levels access lines are written at. */
const infoLevel = 30;
const debugLevel = 20;

/** The routes the console's own files are served by (see console-assets.ts); none when the page itself is answered for a client route. */
const consoleFileRoutes = new Set(['/*', '/']);

/**
 * A successful GET of the console's page or one of its files. These are written at debug: one person
 * clicking through the console asks for hundreds of them, and at info they buried the API and relay
 * lines (3,300 lines for 25 minutes of use). A failed one stays at info.
 */
function isConsoleFile(request: FastifyRequest, reply: FastifyReply): boolean {
  if (reply.statusCode >= 400 || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const route = matchedRoute(request).url;
  return route === undefined || consoleFileRoutes.has(route);
}

/**
 * One access line per request, in the same JSON shape as the rest of the log. It is written straight
 * to the logger's destination instead of through pino: under load pino's per-line serialisation and
 * redaction cost more CPU than the relay's own work on a request (15–20 µs of a 150 µs budget). The
 * line holds nothing to redact: method, path without its query, status, duration and request id.
 * Returns undefined when info lines are off.
 */
export function createAccessLog(logger: Logger): ((request: FastifyRequest, reply: FastifyReply) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const destination = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym];
  if (!destination) return undefined;
  const consoleFilesLogged = logger.isLevelEnabled('debug');
  const service = JSON.stringify((logger.bindings() as { service?: string }).service ?? 'switchboard');
  return (request, reply) => {
    let level = infoLevel;
    if (isConsoleFile(request, reply)) {
      if (!consoleFilesLogged) return;
      level = debugLevel;
    }
    const query = request.url.indexOf('?');
    const path = query < 0 ? request.url : request.url.slice(0, query);
    destination.write(
      `{"level":${level},"time":${Date.now()},"service":${service},"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},"url":${JSON.stringify(path)},"status":${reply.statusCode},"ms":${Math.round(reply.elapsedTime)},"msg":"request"}\n`,
    );
  };
}
