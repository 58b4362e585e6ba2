import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import { pageFrom } from '../listing/page-query.ts';
import { parseInput } from '../listing/parse-input.ts';
import { booleanParameter, textParameter } from '../listing/query-parameters.ts';
import { routeId } from '../listing/route-id.ts';
import { withAndWithoutSlash } from '../listing/route-paths.ts';
import { createTokenSchema, updateTokenSchema } from './token-input.ts';
import { toTokenView } from './token-view.ts';
import type { TokenService } from './token.service.ts';

type Query = Record<string, unknown>;
const user = { config: { access: 'user' as const } };

/** A user's own API tokens (`sk-` keys for the relay). */
export function registerTokenRoutes(app: FastifyInstance, service: TokenService): void {
  for (const url of withAndWithoutSlash('/api/token/')) {
    app.get(url, { config: { access: 'user', paging: 'from-zero' } }, async (request) => {
      const page = pageFrom(request);
      return ok((await service.list(requireUser(request), page.offset, page.pageSize)).map(toTokenView));
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
    app.get(url, user, async (request) => ok(toTokenView(await service.get(requireUser(request), routeId(request.params)))));
    app.delete(url, user, async (request) => {
      await service.delete(requireUser(request), routeId(request.params));
      return ok();
    });
  }
}
