import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import type { AccountServices } from '../user/account-services.ts';
import { queryText } from '../../../core/http/listing/query-parameters.ts';
import type { CompleteLogin } from '../two-factor/two-factor-module.ts';
import { verifyPasswordLogin } from './login.service.ts';

/** Password login and logout. Third-party logins start sessions in oauth/. */
export function registerSessionRoutes(app: FastifyInstance, services: AccountServices, completeLogin: CompleteLogin): void {
  app.post('/api/user/login', { config: { access: 'public' } }, async (request, reply) => {
    const turnstile = queryText(request.query, 'turnstile');
    await services.turnstile.assertPassed(turnstile, request.ip);
    const user = await verifyPasswordLogin(services, request.body, { ip: request.ip, turnstile, addressOverLimit: request.addressOverLimit === true });
    // With a second factor the answer is `require_2fa` and the session starts at /api/user/login/2fa.
    return completeLogin(request, reply, user);
  });

  // Deleting the session row ends the login on every instance at once, not only this one.
  app.get('/api/user/logout', { config: { access: 'public' } }, async (request, reply) => {
    await services.sessions.end(request, reply);
    return ok();
  });
}
