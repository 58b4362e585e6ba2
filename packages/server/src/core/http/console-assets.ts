import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commonMessages } from '../messages/catalogue.ts';
import { isRelayPath, sendError } from './error-handler.ts';
import { isApiPath, requestPath } from './request-path.ts';
import { consoleSecurityHeaders, type ConsolePolicyOptions } from './security-headers.ts';

/**
 * Serves the built console: hashed files under /assets are cached for a year, everything else is
 * revalidated. Any other GET for a page (a client route such as /token) gets index.html. Unknown
 * /api paths answer the JSON envelope and unknown relay paths the OpenAI error — never the page —
 * however they are spelt (`/%61pi/…`, `//API/…`, `/x/../api/…`). The page and its files carry the
 * console's security headers; `policy` is read per answer, as the Telegram option can change.
 */
export async function registerConsoleAssets(app: FastifyInstance, distPath: string, policy: () => ConsolePolicyOptions): Promise<void> {
  const indexPath = join(distPath, 'index.html');
  const indexHtml = existsSync(indexPath) ? readFileSync(indexPath) : undefined;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: distPath,
      wildcard: true,
      index: false,
      setHeaders(response, path) {
        const hashed = path.includes(`${join(distPath, 'assets')}`);
        response.headers(consoleSecurityHeaders(policy()));
        response.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').headers(consoleSecurityHeaders(policy())).header('Cache-Control', 'no-cache').send(indexHtml);

  if (indexHtml) app.get('/', (_request, reply) => sendIndex(reply));

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = requestPath(request);
    const isAsset = path.startsWith('/assets/');
    if (isApiPath(path) || isRelayPath(path) || isAsset || request.method !== 'GET' || !indexHtml) {
      return sendError(request, reply, 404, commonMessages.routeNotFound, { path: request.url.split('?')[0] ?? '' }, 'not_found');
    }
    return sendIndex(reply);
  });
}
