import { twoFactorCodeRequestSchema, twoFactorLoginRequestSchema, UserStatus, verifyRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { ok } from '../../../core/http/envelope.ts';
import { commonMessages } from '../../../core/messages/catalogue.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import type { AccountServices } from '../user/account-services.ts';
import { localize } from '../../../core/http/localize.ts';
import { toLoginView } from '../user/user-view.ts';
import type { TwoFactorModule } from './two-factor-module.ts';
import { tokenMessages } from '../token/token.messages.ts';
import { twoFactorMessages } from './two-factor.messages.ts';

const user = { config: { access: 'user' as const } };
const admin = { config: { access: 'admin' as const } };
const open = { config: { access: 'public' as const } };

/** new-api's 2FA routes: enrolment, the login step, re-verification and the administrator's reset. */
export function registerTwoFactorRoutes(app: FastifyInstance, services: AccountServices, twoFactor: TwoFactorModule): void {
  const { service, challenges, verification } = twoFactor;

  app.get('/api/user/2fa/status', user, async (request) => ok(await service.status(requireUser(request).id)));

  app.post('/api/user/2fa/setup', user, async (request) => ok(await service.setup(requireUser(request)), localize(request, twoFactorMessages.setupStarted)));

  app.post('/api/user/2fa/enable', user, async (request) => {
    await service.enable(requireUser(request), parseInput(twoFactorCodeRequestSchema, request.body).code, request.ip);
    return ok(undefined, localize(request, twoFactorMessages.enabled));
  });

  app.post('/api/user/2fa/disable', user, async (request) => {
    await service.disable(requireUser(request), parseInput(twoFactorCodeRequestSchema, request.body).code, request.ip);
    return ok(undefined, localize(request, twoFactorMessages.disabled));
  });

  app.post('/api/user/2fa/backup_codes', user, async (request) => {
    const codes = await service.regenerateBackupCodes(requireUser(request), parseInput(twoFactorCodeRequestSchema, request.body).code, request.ip);
    return ok({ backup_codes: codes }, localize(request, twoFactorMessages.codesRegenerated));
  });

  app.post('/api/user/login/2fa', open, async (request, reply) => {
    const body = parseInput(twoFactorLoginRequestSchema, request.body);
    const pending = await challenges.pending(request, body.flow_token);
    if (!pending) throw new AppError(twoFactorMessages.loginExpired);
    const row = await services.users.findById(pending.userId);
    if (!row) throw new AppError(twoFactorMessages.loginExpired);
    if (row.status !== UserStatus.enabled) throw new AppError(commonMessages.userBanned);
    await service.verify({ userId: row.id, username: row.username, ip: request.ip, code: body.code });
    if (!(await challenges.finish(reply, pending.token))) throw new AppError(twoFactorMessages.loginExpired);
    await verification.markStartedSession(await services.sessions.start(reply, row.id, request.ip), row.id);
    return ok(toLoginView(row));
  });

  app.post('/api/verify', user, async (request) => {
    const body = parseInput(verifyRequestSchema, request.body);
    const caller = requireUser(request);
    if (body.method === 'passkey') {
      // new-api's passkey step-up: /api/user/passkey/verify/finish proved it; this call only confirms it.
      if (!(await verification.isVerified(request, caller.id))) throw new AppError(twoFactorMessages.passkeyFirst);
    } else if (body.method === '2fa') {
      await service.verify({ userId: caller.id, username: caller.username, ip: request.ip, code: body.code });
    } else throw new AppError(twoFactorMessages.methodUnsupported);
    const expiresAt = await verification.mark(request, caller.id, services.clock.unixSeconds());
    return ok({ verified: true, expires_at: expiresAt }, localize(request, twoFactorMessages.verified));
  });

  // new-api's reveal route: the full key of one of the caller's tokens, after a recent /api/verify
  // when a second factor is set (the token lists then mask keys, api/token/token-view.ts).
  app.post('/api/token/:id/key', user, async (request) => {
    const caller = requireUser(request);
    const id = routeId(request.params);
    await verification.assert(request, caller.id);
    const token = await twoFactor.tokens.find(caller.id, id);
    if (!token) throw new AppError(tokenMessages.notFound);
    return ok({ key: token.key });
  });

  app.delete('/api/user/:id/2fa', admin, async (request) => {
    await service.adminReset(requireUser(request), routeId(request.params));
    return ok(undefined, localize(request, twoFactorMessages.adminReset));
  });
}
