import { resetPasswordRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import type { AccountServices } from '../user/account-services.ts';
import { localize } from '../../../core/http/localize.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { queryText } from '../../../core/http/listing/query-parameters.ts';
import { verificationMessages } from './verification.messages.ts';
import type { VerificationService } from './verification.service.ts';

const open = { config: { access: 'public' as const } };

export function registerVerificationRoutes(app: FastifyInstance, services: AccountServices, verification: VerificationService): void {
  app.get('/api/verification', open, async (request) => {
    await services.turnstile.assertPassed(queryText(request.query, 'turnstile'), request.ip);
    await services.mailLimiter.hit(request.ip);
    await verification.sendEmailCode(queryText(request.query, 'email'));
    return ok(undefined, localize(request, verificationMessages.codeSent));
  });

  app.get('/api/reset_password', open, async (request) => {
    await services.turnstile.assertPassed(queryText(request.query, 'turnstile'), request.ip);
    await services.mailLimiter.hit(request.ip);
    await verification.sendPasswordReset(queryText(request.query, 'email'));
    return ok(undefined, localize(request, verificationMessages.resetMailSent));
  });

  app.post('/api/user/reset', open, async (request) => ok(await verification.completePasswordReset(parseInput(resetPasswordRequestSchema, request.body))));
}
