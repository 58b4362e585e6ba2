import type { FastifyInstance } from 'fastify';
import { idNumber, nameText, wholeNumber } from '@switchboard/contracts';
import { z } from 'zod';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { ok } from '../../../core/http/envelope.ts';
import type { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { booleanParameter, textParameter } from '../../../core/http/listing/query-parameters.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import { toRedemptionView } from './redemption-view.ts';
import type { RedemptionService } from './redemption.service.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
/** JSON numbers only, as the console sends them; the service checks their ranges. */
const integer = wholeNumber.optional();
const fields = z.object({ name: nameText.nullish(), quota: integer, expired_time: integer });
const createSchema = fields.extend({ count: integer });
const updateSchema = fields.extend({ id: idNumber, status: integer });

export function registerRedemptionRoutes(app: FastifyInstance, service: RedemptionService, lists: ListDialect): void {
  for (const url of withAndWithoutSlash('/api/redemption/')) {
    app.get(url, { config: { access: 'admin', paging: 'by-dialect' } }, async (request) => {
      const page = lists.page(request);
      return ok(await lists.answer(page, (await service.list(page.offset, page.pageSize)).map(toRedemptionView), () => service.count()));
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
  app.get('/api/redemption/search', { config: { access: 'admin', paging: 'by-dialect' } }, async (request) =>
    ok(lists.whole(request, (await service.search(textParameter(request.query as Query, 'keyword'))).map(toRedemptionView))),
  );
  // A static path, so it wins over `:id` (which would refuse `invalid` as an id).
  for (const url of withAndWithoutSlash('/api/redemption/invalid')) app.delete(url, admin, async () => ok(await service.deleteInvalid()));
  for (const url of withAndWithoutSlash('/api/redemption/:id')) {
    app.get(url, admin, async (request) => ok(toRedemptionView(await service.get(routeId(request.params)))));
    app.delete(url, admin, async (request) => {
      await service.delete(routeId(request.params));
      return ok();
    });
  }
}
