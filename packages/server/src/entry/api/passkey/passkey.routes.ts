import {
  passkeyAssertionSchema,
  passkeyLoginBeginSchema,
  passkeyRegistrationFinishSchema,
  renamePasskeyRequestSchema,
  type TwoFactorStats,
  UserStatus,
} from '@switchboard/contracts';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { ok } from '../../../core/http/envelope.ts';
import { commonMessages } from '../../../core/messages/catalogue.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import type { TwoFactorModule } from '../two-factor/two-factor-module.ts';
import { twoFactorMessages } from '../two-factor/two-factor.messages.ts';
import type { AccountServices } from '../user/account-services.ts';
import { localize } from '../../../core/http/localize.ts';
import { toLoginView } from '../user/user-view.ts';
import type { PasskeyService } from './passkey.service.ts';
import { passkeyMessages } from './passkey.messages.ts';
import { resolveRelyingParty } from './relying-party.ts';
import type { SecondFactorStatsRepository } from './second-factor-stats.repository.ts';

const user = { config: { access: 'user' as const } };
const admin = { config: { access: 'admin' as const } };
const open = { config: { access: 'public' as const } };

/**
 * A begin answer as new-api sends it: `options` is the WebAuthn `CredentialCreationOptions` /
 * `CredentialRequestOptions` wrapper, so the ceremony's options sit under `publicKey` (both of
 * new-api's consoles and ours read them there).
 */
function ceremonyOptions<T>(publicKey: T): { options: { publicKey: T } } {
  return { options: { publicKey } };
}

export interface PasskeyRouteDependencies {
  services: AccountServices;
  passkeys: PasskeyService;
  twoFactor: TwoFactorModule;
  stats: SecondFactorStatsRepository;
}

/**
 * new-api's passkey routes (router/api-router.go): status, register, re-verify, login (alone, or as the
 * second factor of a password login with its `flow_token`), delete, the administrator's reset, and the
 * 2FA statistics. Adding or removing a passkey needs a recent re-verification when a second factor is set
 * (a login with the second factor is one: recent-verification.ts).
 */
export function registerPasskeyRoutes(app: FastifyInstance, { services, passkeys, twoFactor, stats }: PasskeyRouteDependencies): void {
  const { verification, challenges } = twoFactor;
  const party = (request: Parameters<typeof resolveRelyingParty>[0]) => resolveRelyingParty(request, services.options);

  app.get('/api/user/passkey', user, async (request) => ok(await passkeys.status(requireUser(request).id)));

  app.post('/api/user/passkey/register/begin', user, async (request) => {
    const caller = requireUser(request);
    passkeys.assertEnabled();
    await verification.assert(request, caller.id);
    return ok(ceremonyOptions(await passkeys.registrationOptions(caller, party(request))));
  });

  app.post('/api/user/passkey/register/finish', user, async (request) => {
    const body = parseInput(passkeyRegistrationFinishSchema, request.body);
    await passkeys.register(requireUser(request), body as unknown as RegistrationResponseJSON, body.name);
    return ok(undefined, localize(request, passkeyMessages.registered));
  });

  app.put('/api/user/passkey/:id', user, async (request) => {
    await passkeys.rename(requireUser(request), routeId(request.params), parseInput(renamePasskeyRequestSchema, request.body).name);
    return ok(undefined, localize(request, passkeyMessages.renamed));
  });

  app.delete('/api/user/passkey/:id', user, async (request) => {
    const caller = requireUser(request);
    const id = routeId(request.params);
    await verification.assert(request, caller.id);
    await passkeys.remove(caller, id);
    return ok(undefined, localize(request, passkeyMessages.deleted));
  });

  app.delete('/api/user/passkey', user, async (request) => {
    const caller = requireUser(request);
    await verification.assert(request, caller.id);
    await passkeys.remove(caller, undefined);
    return ok(undefined, localize(request, passkeyMessages.deleted));
  });

  app.post('/api/user/passkey/verify/begin', user, async (request) => {
    const caller = requireUser(request);
    return ok(ceremonyOptions(await passkeys.assertionOptions(party(request), 'verify', { userId: caller.id })));
  });

  app.post('/api/user/passkey/verify/finish', user, async (request) => {
    const caller = requireUser(request);
    await passkeys.finishVerify(caller, parseInput(passkeyAssertionSchema, request.body) as unknown as AuthenticationResponseJSON);
    const expiresAt = await verification.mark(request, caller.id, services.clock.unixSeconds());
    return ok({ verified: true, expires_at: expiresAt }, localize(request, passkeyMessages.verified));
  });

  app.post('/api/user/passkey/login/begin', open, async (request) => {
    const body = parseInput(passkeyLoginBeginSchema, request.body);
    if (!body?.flow_token) return ok(ceremonyOptions(await passkeys.assertionOptions(party(request), 'login')));
    const pending = await challenges.pending(request, body.flow_token);
    if (!pending) throw new AppError(twoFactorMessages.loginExpired);
    return ok(ceremonyOptions(await passkeys.assertionOptions(party(request), 'login', { userId: pending.userId, flowToken: pending.token })));
  });

  app.post('/api/user/passkey/login/finish', open, async (request, reply) => {
    const { userId, ceremony } = await passkeys.finishLogin(parseInput(passkeyAssertionSchema, request.body) as unknown as AuthenticationResponseJSON);
    const row = await services.users.findById(userId);
    if (!row) throw new AppError(passkeyMessages.verifyFailed);
    if (row.status !== UserStatus.enabled) throw new AppError(commonMessages.userBanned);
    // As the second factor of a password login, the pending login ends here (once).
    if (ceremony.flowToken && !(await challenges.finish(reply, ceremony.flowToken))) throw new AppError(twoFactorMessages.loginExpired);
    await verification.markStartedSession(await services.sessions.start(reply, row.id, request.ip), row.id);
    return ok(toLoginView(row));
  });

  app.delete('/api/user/:id/reset_passkey', admin, async (request) => {
    await passkeys.adminReset(requireUser(request), routeId(request.params));
    return ok(undefined, localize(request, passkeyMessages.adminReset));
  });

  app.get('/api/user/2fa/stats', admin, async () => {
    const { total, enabled } = await stats.counts();
    const rate = total > 0 ? (enabled / total) * 100 : 0;
    const answer: TwoFactorStats = { total_users: total, enabled_users: enabled, enabled_rate: `${rate.toFixed(1)}%` };
    return ok(answer);
  });
}
