import { setupRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import type { SessionService } from '../../../domain/auth/session-service.ts';
import { ok } from '../../../core/http/envelope.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { localize } from '../../../core/http/localize.ts';
import type { SetupService } from './setup.service.ts';
import { setupMessages } from './setup.messages.ts';

/**
 * `GET /api/setup` is public, as in new-api (its console asks before anyone logs in). `POST` is root's:
 * here the root account always exists (a first start creates it), so the setup changes a live
 * account's password, which only that account may do.
 */
export function registerSetupRoutes(app: FastifyInstance, setup: SetupService, sessions: SessionService): void {
  app.get('/api/setup', { config: { access: 'public' } }, async () => ok(await setup.state()));

  app.post('/api/setup', { config: { access: 'root' } }, async (request) => {
    await setup.complete(requireUser(request).id, sessions.sessionId(request), parseInput(setupRequestSchema, request.body));
    return ok(undefined, localize(request, setupMessages.done));
  });
}
