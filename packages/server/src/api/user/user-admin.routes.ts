import { createUserRequestSchema, manageUserRequestSchema, updateUserRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import { pageFrom } from '../listing/page-query.ts';
import { parseInput } from '../listing/parse-input.ts';
import { queryText } from '../listing/query-parameters.ts';
import { routeId } from '../listing/route-id.ts';
import type { UserAdminService } from './user-admin.service.ts';
import { toUserView } from './user-view.ts';

const admin = { config: { access: 'admin' as const } };
const defaultSearchSize = 100;

export function registerUserAdminRoutes(app: FastifyInstance, users: UserAdminService): void {
  // The console calls /api/user/ with the slash; scripts written for new-api also call it without.
  for (const url of ['/api/user/', '/api/user']) {
    app.get(url, { config: { access: 'admin', paging: 'from-zero' } }, async (request) => {
      const page = pageFrom(request);
      return ok((await users.list(page.offset, page.pageSize)).map(toUserView));
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

  app.get('/api/user/search', { config: { access: 'admin', paging: 'from-zero' } }, async (request) => {
    const page = pageFrom(request, { defaultSize: defaultSearchSize });
    return ok((await users.search(queryText(request.query, 'keyword'), queryText(request.query, 'group'), page.offset, page.pageSize)).map(toUserView));
  });

  app.get('/api/user/:id', admin, async (request) => ok(toUserView(await users.get(requireUser(request), routeId(request.params)))));

  app.post('/api/user/manage', admin, async (request) => ok(await users.manage(requireUser(request), parseInput(manageUserRequestSchema, request.body))));

  app.delete('/api/user/:id', admin, async (request) => {
    await users.delete(requireUser(request), routeId(request.params));
    return ok();
  });
}
