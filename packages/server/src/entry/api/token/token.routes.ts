import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { ok } from '../../../core/http/envelope.ts';
import type { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { booleanParameter, textParameter } from '../../../core/http/listing/query-parameters.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import { createTokenSchema, updateTokenSchema } from './token-input.ts';
import { toTokenView } from './token-view.ts';
import type { TokenService } from './token.service.ts';
import type { TokenRow } from '../../../core/db/schema.ts';

type Query = Record<string, unknown>;
const user = { config: { access: 'user' as const } };

/**
 * A user's own API tokens (`sk-` keys for the relay). `hidesKeys` says whether the owner's keys are
 * masked in every answer (a second factor is set: api/two-factor/ reveals them after re-verifying).
 */
export function registerTokenRoutes(app: FastifyInstance, service: TokenService, hidesKeys: (userId: number) => Promise<boolean>, lists: ListDialect): void {
  const views = async (userId: number, rows: readonly TokenRow[]) => {
    const hide = await hidesKeys(userId);
    return rows.map((row) => toTokenView(row, hide));
  };
  for (const url of withAndWithoutSlash('/api/token/')) {
    app.get(url, { config: { access: 'user', paging: 'by-dialect' } }, async (request) => {
      const page = lists.page(request);
      const rows = await views(requireUser(request).id, await service.list(requireUser(request), page.offset, page.pageSize));
      return ok(await lists.answer(page, rows, () => service.count(requireUser(request))));
    });
    app.post(url, user, async (request) => {
      const body = parseInput(createTokenSchema, request.body);
      return ok(await views(requireUser(request).id, await service.create(requireUser(request), body, body.count ?? 1)));
    });
    app.put(url, user, async (request) => {
      const body = parseInput(updateTokenSchema, request.body);
      const row = await service.update(requireUser(request), body.id, body, booleanParameter(request.query as Query, 'status_only'));
      return ok((await views(requireUser(request).id, [row]))[0]);
    });
  }
  app.get('/api/token/search', { config: { access: 'user', paging: 'by-dialect' } }, async (request) => {
    const query = request.query as Query;
    const found = await views(
      requireUser(request).id,
      await service.search(requireUser(request), textParameter(query, 'keyword'), textParameter(query, 'token')),
    );
    return ok(lists.whole(request, found));
  });
  for (const url of withAndWithoutSlash('/api/token/:id')) {
    app.get(url, user, async (request) => ok((await views(requireUser(request).id, [await service.get(requireUser(request), routeId(request.params))]))[0]));
    app.delete(url, user, async (request) => {
      await service.delete(requireUser(request), routeId(request.params));
      return ok();
    });
  }
}
