import { createUserRequestSchema, manageUserRequestSchema, updateUserRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import type { AccountServices } from './account-services.ts';
import { pageOf, parseBody, queryText } from './request-input.ts';
import { UserAdminService } from './user-admin.service.ts';
import { userMessages } from './user.messages.ts';
import { toUserView } from './user-view.ts';

const admin = { config: { access: 'admin' as const } };
const defaultPageSize = 10;
const defaultSearchSize = 100;

function idParameter(params: unknown): number {
  const raw = (params as { id?: string }).id ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw new AppError(userMessages.notFound);
  return id;
}

export function registerUserAdminRoutes(app: FastifyInstance, services: AccountServices): void {
  const users = new UserAdminService(services);

  // The console calls /api/user/ with the slash; scripts written for new-api also call it without.
  for (const url of ['/api/user/', '/api/user']) {
    app.get(url, admin, async (request) => {
      const page = pageOf(request.query, defaultPageSize);
      return ok((await users.list(page.offset, page.limit)).map(toUserView));
    });

    app.post(url, admin, async (request) => {
      await users.create(requireUser(request), parseBody(createUserRequestSchema, request.body));
      return ok();
    });

    app.put(url, admin, async (request) => {
      await users.update(requireUser(request), parseBody(updateUserRequestSchema, request.body));
      return ok();
    });
  }

  app.get('/api/user/search', admin, async (request) => {
    const page = pageOf(request.query, defaultSearchSize);
    return ok((await users.search(queryText(request.query, 'keyword'), queryText(request.query, 'group'), page.offset, page.limit)).map(toUserView));
  });

  app.get('/api/user/:id', admin, async (request) => ok(toUserView(await users.get(requireUser(request), idParameter(request.params)))));

  app.post('/api/user/manage', admin, async (request) => ok(await users.manage(requireUser(request), parseBody(manageUserRequestSchema, request.body))));

  app.delete('/api/user/:id', admin, async (request) => {
    await users.delete(requireUser(request), idParameter(request.params));
    return ok();
  });
}
