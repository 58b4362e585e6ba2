import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { TwoFactorModule } from '../two-factor/two-factor-module.ts';
import type { AccountServices } from '../user/account-services.ts';
import { guardAdminRoutes } from './admin-second-factor-guard.ts';
import { PasskeyCeremonies } from './passkey-ceremonies.ts';
import { PasskeyRepository } from './passkey.repository.ts';
import { registerPasskeyRoutes } from './passkey.routes.ts';
import { PasskeyService } from './passkey.service.ts';
import { SecondFactorStatsRepository } from './second-factor-stats.repository.ts';

/** The passkey service, built before the two-factor module (a passkey is a second factor there). */
export function createPasskeyService(services: AccountServices, database: DatabaseHandle): PasskeyService {
  const { users, options, logWriter, clock, store } = services;
  const repository = new PasskeyRepository(database.db, database.dialect);
  return new PasskeyService({ repository, ceremonies: new PasskeyCeremonies(store), users, options, logWriter, clock });
}

/** Passkey routes, the 2FA statistics, and the admin routes' second-factor requirement. */
export function registerPasskeys(
  app: FastifyInstance,
  database: DatabaseHandle,
  services: AccountServices,
  passkeys: PasskeyService,
  twoFactor: TwoFactorModule,
): void {
  registerPasskeyRoutes(app, { services, passkeys, twoFactor, stats: new SecondFactorStatsRepository(database.db) });
  guardAdminRoutes(app, services.options, async (userId) => (await twoFactor.secondFactors(userId)).length > 0);
}
