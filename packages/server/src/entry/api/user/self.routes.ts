import { affTransferRequestSchema, updateSelfRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { ok } from '../../../core/http/envelope.ts';
import type { SessionService } from '../../../domain/auth/session-service.ts';
import type { RecentVerification } from '../two-factor/recent-verification.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { localize } from '../../../core/http/localize.ts';
import type { SelfService } from './self.service.ts';
import { userMessages } from './user.messages.ts';
import { toSelfView } from './user-view.ts';

const user = { config: { access: 'user' as const } };

export function registerSelfRoutes(app: FastifyInstance, self: SelfService, sessions: SessionService, secondFactor: RecentVerification): void {
  app.get('/api/user/self', user, async (request) => ok(toSelfView(await self.get(requireUser(request).id))));

  app.put('/api/user/self', user, async (request) => {
    const input = parseInput(updateSelfRequestSchema, request.body);
    // A new password with a second factor set needs a recent POST /api/verify (a stolen session alone cannot take the account).
    if (input.password) await secondFactor.assert(request, requireUser(request).id);
    await self.update(requireUser(request).id, sessions.sessionId(request), input);
    return ok();
  });

  app.delete('/api/user/self', user, async (request, reply) => {
    // Deleting the account, like a new password, takes a recent second-factor check when one is set.
    await secondFactor.assert(request, requireUser(request).id);
    await self.deregister(requireUser(request).id);
    await sessions.end(request, reply);
    return ok();
  });

  app.get('/api/user/token', user, async (request) => {
    // The access token acts as the user on every console route, so minting one is re-verified too.
    await secondFactor.assert(request, requireUser(request).id);
    return ok(await self.regenerateAccessToken(requireUser(request).id));
  });

  app.get('/api/user/aff', user, async (request) => ok(await self.affCode(requireUser(request).id)));

  app.post('/api/user/aff_transfer', user, async (request) => {
    await self.transferAffQuota(requireUser(request), parseInput(affTransferRequestSchema, request.body));
    return ok(undefined, localize(request, userMessages.affTransferDone));
  });

  app.get('/api/user/models', user, async (request) => ok(await self.models(requireUser(request).id)));

  app.get('/api/user/self/groups', user, async (request) => ok(await self.groups(requireUser(request).id)));
}
