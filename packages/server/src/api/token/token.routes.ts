import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import { booleanParameter, textParameter, zeroBasedPage } from '../listing/page-query.ts';
import { parseInput } from '../listing/parse-input.ts';
import { withAndWithoutSlash } from '../listing/route-paths.ts';
import { createTokenSchema, updateTokenSchema } from './token-input.ts';
import { toTokenView } from './token-view.ts';
import { TokenRepository } from './token.repository.ts';
import { TokenService } from './token.service.ts';

type Query = Record<string, unknown>;
const user = { config: { access: 'user' as const } };
const idParameter = z.object({ id: z.coerce.number().int().positive() });

/** A user's own API tokens (`sk-` keys for the relay). */
export function registerTokenRoutes(app: FastifyInstance, context: AppContext): void {
  const service = new TokenService(new TokenRepository(context.database.db, context.database.dialect), context);

  for (const url of withAndWithoutSlash('/api/token/')) {
    app.get(url, user, async (request) => {
      const page = zeroBasedPage(request.query as Query, 'size');
      return ok((await service.list(requireUser(request), page.offset, page.limit)).map(toTokenView));
    });
    app.post(url, user, async (request) => {
      const body = parseInput(createTokenSchema, request.body);
      return ok((await service.create(requireUser(request), body, body.count ?? 1)).map(toTokenView));
    });
    app.put(url, user, async (request) => {
      const body = parseInput(updateTokenSchema, request.body);
      return ok(toTokenView(await service.update(requireUser(request), body.id, body, booleanParameter(request.query as Query, 'status_only'))));
    });
  }
  app.get('/api/token/search', user, async (request) => {
    const query = request.query as Query;
    return ok((await service.search(requireUser(request), textParameter(query, 'keyword'), textParameter(query, 'token'))).map(toTokenView));
  });
  for (const url of withAndWithoutSlash('/api/token/:id')) {
    app.get(url, user, async (request) => ok(toTokenView(await service.get(requireUser(request), parseInput(idParameter, request.params).id))));
    app.delete(url, user, async (request) => {
      await service.delete(requireUser(request), parseInput(idParameter, request.params).id);
      return ok();
    });
  }
}
