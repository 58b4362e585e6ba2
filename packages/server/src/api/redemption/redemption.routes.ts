import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import { booleanParameter, textParameter, zeroBasedPage } from '../listing/page-query.ts';
import { parseInput } from '../listing/parse-input.ts';
import { withAndWithoutSlash } from '../listing/route-paths.ts';
import { toRedemptionView } from './redemption-view.ts';
import { RedemptionRepository } from './redemption.repository.ts';
import { RedemptionService } from './redemption.service.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const idParameter = z.object({ id: z.coerce.number().int().positive() });
/** Numbers typed into the console may arrive as strings. */
const integer = z.preprocess((value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value)) : value), z.number().optional());
const fields = z.object({ name: z.string().nullish(), quota: integer, expired_time: integer });
const createSchema = fields.extend({ count: integer });
const updateSchema = fields.extend({ id: z.coerce.number().int().positive(), status: integer });

export function registerRedemptionRoutes(app: FastifyInstance, context: AppContext): void {
  const service = new RedemptionService(new RedemptionRepository(context.database.db, context.database.dialect), context);

  for (const url of withAndWithoutSlash('/api/redemption/')) {
    app.get(url, admin, async (request) => {
      const page = zeroBasedPage(request.query as Query);
      return ok((await service.list(page.offset, page.limit)).map(toRedemptionView));
    });
    app.post(url, admin, async (request) => {
      const body = parseInput(createSchema, request.body);
      return ok(await service.create(requireUser(request), body, body.count ?? 1));
    });
    app.put(url, admin, async (request) => {
      const body = parseInput(updateSchema, request.body);
      return ok(toRedemptionView(await service.update(body.id, body, booleanParameter(request.query as Query, 'status_only'))));
    });
  }
  app.get('/api/redemption/search', admin, async (request) => ok((await service.search(textParameter(request.query as Query, 'keyword'))).map(toRedemptionView)));
  for (const url of withAndWithoutSlash('/api/redemption/:id')) {
    app.get(url, admin, async (request) => ok(toRedemptionView(await service.get(parseInput(idParameter, request.params).id))));
    app.delete(url, admin, async (request) => {
      await service.delete(parseInput(idParameter, request.params).id);
      return ok();
    });
  }
}
