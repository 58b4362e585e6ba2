import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commonMessages } from '../messages/catalogue.ts';
import { isRelayPath, sendError } from './error-handler.ts';

/**
 * Serves the built console: hashed files under /assets are cached for a year, everything else is
 * revalidated. Any other GET for a page (a client route such as /token) gets index.html. Unknown
 * /api paths answer the JSON envelope and unknown relay paths the OpenAI error — never the page.
 */
export async function registerConsoleAssets(app: FastifyInstance, distPath: string): Promise<void> {
  const indexPath = join(distPath, 'index.html');
  const indexHtml = existsSync(indexPath) ? readFileSync(indexPath) : undefined;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: distPath,
      wildcard: true,
      index: false,
      setHeaders(response, path) {
        const hashed = path.includes(`${join(distPath, 'assets')}`);
        response.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendIndex = (reply: FastifyReply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(indexHtml);

  if (indexHtml) app.get('/', (_request, reply) => sendIndex(reply));

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    const isAsset = path.startsWith('/assets/');
    if (isApi || isRelayPath(path) || isAsset || request.method !== 'GET' || !indexHtml) {
      return sendError(request, reply, 404, commonMessages.routeNotFound, { path }, 'not_found');
    }
    return sendIndex(reply);
  });
}
