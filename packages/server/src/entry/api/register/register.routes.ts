import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import type { AccountServices } from '../user/account-services.ts';
import { queryText } from '../../../core/http/listing/query-parameters.ts';
import type { VerificationService } from '../verification/verification.service.ts';
import { registerWithPassword } from './register.service.ts';

export function registerRegistrationRoutes(app: FastifyInstance, services: AccountServices, verification: VerificationService): void {
  app.post('/api/user/register', { config: { access: 'public' } }, async (request) => {
    await services.turnstile.assertPassed(queryText(request.query, 'turnstile'), request.ip);
    await registerWithPassword(services, verification, request.body);
    return ok();
  });
}
