import { Role } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { passkeyMessages } from './passkey.messages.ts';
import { matchedRoute } from '../../../core/http/matched-route.ts';

/** Whether `TwoFactorRequiredForAdmins` applies to this user (they must have a second factor). */
export function mustHaveSecondFactor(options: OptionStore, user: Pick<CurrentUser, 'role'>): boolean {
  return user.role >= Role.admin && options.getBoolean('TwoFactorRequiredForAdmins');
}

/**
 * With `TwoFactorRequiredForAdmins` on, admin and root routes refuse an administrator who has neither
 * TOTP nor a passkey (403, code `second_factor_required`); the enrolment routes are user routes, so the
 * way out stays open. Runs after the authentication hook, which set the caller.
 */
export function guardAdminRoutes(app: FastifyInstance, options: OptionStore, hasSecondFactor: (userId: number) => Promise<boolean>): void {
  // Callback style: every other route (the relay's above all) passes without a promise.
  app.addHook('preHandler', (request, _reply, done) => {
    const access = matchedRoute(request).access;
    const caller = request.currentUser;
    if ((access !== 'admin' && access !== 'root') || !caller || !mustHaveSecondFactor(options, caller)) {
      done();
      return;
    }
    hasSecondFactor(caller.id).then(
      (has) => done(has ? undefined : new AppError(passkeyMessages.enrolmentRequired, { status: 403, code: 'second_factor_required' })),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
}
