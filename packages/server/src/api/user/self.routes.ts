import { affTransferRequestSchema, updateSelfRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import type { AccountServices } from './account-services.ts';
import { localize } from './localize.ts';
import { parseBody } from './request-input.ts';
import { SelfService } from './self.service.ts';
import { userMessages } from './user.messages.ts';
import { toUserView } from './user-view.ts';

const user = { config: { access: 'user' as const } };

export function registerSelfRoutes(app: FastifyInstance, services: AccountServices): void {
  const self = new SelfService(services);

  app.get('/api/user/self', user, async (request) => ok(toUserView(await self.get(requireUser(request).id))));

  app.put('/api/user/self', user, async (request) => {
    await self.update(requireUser(request).id, services.context.sessions.sessionId(request), parseBody(updateSelfRequestSchema, request.body));
    return ok();
  });

  app.delete('/api/user/self', user, async (request, reply) => {
    await self.deregister(requireUser(request).id);
    await services.context.sessions.end(request, reply);
    return ok();
  });

  app.get('/api/user/token', user, async (request) => ok(await self.regenerateAccessToken(requireUser(request).id)));

  app.get('/api/user/aff', user, async (request) => ok(await self.affCode(requireUser(request).id)));

  app.post('/api/user/aff_transfer', user, async (request) => {
    await self.transferAffQuota(requireUser(request), parseBody(affTransferRequestSchema, request.body));
    return ok(undefined, localize(request, userMessages.affTransferDone));
  });

  app.get('/api/user/models', user, async (request) => ok(await self.models(requireUser(request).id)));

  app.get('/api/user/self/groups', user, async (request) => ok(await self.groups(requireUser(request).id)));
}
