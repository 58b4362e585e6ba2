import { createUserRequestSchema, manageUserRequestSchema, updateUserRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { ok } from '../../../core/http/envelope.ts';
import type { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { queryText } from '../../../core/http/listing/query-parameters.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import type { UserAdminService } from './user-admin.service.ts';
import { toUserView } from './user-view.ts';

const admin = { config: { access: 'admin' as const } };
const defaultSearchSize = 100;

export function registerUserAdminRoutes(app: FastifyInstance, users: UserAdminService, lists: ListDialect): void {
  // The console calls /api/user/ with the slash; scripts written for new-api also call it without.
  for (const url of ['/api/user/', '/api/user']) {
    app.get(url, { config: { access: 'admin', paging: 'by-dialect' } }, async (request) => {
      const page = lists.page(request);
      return ok(await lists.answer(page, (await users.list(page.offset, page.pageSize)).map(toUserView), () => users.count()));
    });

    app.post(url, admin, async (request) => {
      await users.create(requireUser(request), parseInput(createUserRequestSchema, request.body));
      return ok();
    });

    app.put(url, admin, async (request) => {
      await users.update(requireUser(request), parseInput(updateUserRequestSchema, request.body));
      return ok();
    });
  }

  app.get('/api/user/search', { config: { access: 'admin', paging: 'by-dialect' } }, async (request) => {
    const page = lists.page(request, { defaultSize: defaultSearchSize });
    const [keyword, group] = [queryText(request.query, 'keyword'), queryText(request.query, 'group')];
    const found = (await users.search(keyword, group, page.offset, page.pageSize)).map(toUserView);
    return ok(await lists.answer(page, found, () => users.countSearch(keyword, group)));
  });

  app.get('/api/user/:id', admin, async (request) => ok(toUserView(await users.get(requireUser(request), routeId(request.params)))));

  app.post('/api/user/manage', admin, async (request) => ok(await users.manage(requireUser(request), parseInput(manageUserRequestSchema, request.body))));

  app.delete('/api/user/:id', admin, async (request) => {
    await users.delete(requireUser(request), routeId(request.params));
    return ok();
  });
}
