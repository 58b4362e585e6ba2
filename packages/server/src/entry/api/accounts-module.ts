import type { FastifyInstance } from 'fastify';
import { ListDialect } from '../../core/http/listing/list-dialect.ts';
import { registerOAuthRoutes } from './oauth/oauth.routes.ts';
import { registerOptionRoutes } from './option/option.routes.ts';
import { createPasskeyService, registerPasskeys } from './passkey/passkey-module.ts';
import { registerRegistrationRoutes } from './register/register.routes.ts';
import { registerSessionRoutes } from './session/session.routes.ts';
import { SetupRepository } from './setup/setup.repository.ts';
import { registerSetupRoutes } from './setup/setup.routes.ts';
import { SetupService } from './setup/setup.service.ts';
import type { RecentVerification } from './two-factor/recent-verification.ts';
import { createTwoFactorModule } from './two-factor/two-factor-module.ts';
import { registerTwoFactorRoutes } from './two-factor/two-factor.routes.ts';
import { createAccountServices, type AccountServicesDependencies } from './user/account-services.ts';
import { registerSelfRoutes } from './user/self.routes.ts';
import { SelfService } from './user/self.service.ts';
import { registerUserAdminRoutes } from './user/user-admin.routes.ts';
import { UserAdminService } from './user/user-admin.service.ts';
import { registerVerificationRoutes } from './verification/verification.routes.ts';
import { VerificationService } from './verification/verification.service.ts';

/** What other modules need of the accounts: the re-verification sensitive actions ask for. */
export interface AccountsForOthers {
  readonly reverification: RecentVerification;
}

/** What the accounts use: what their shared services are built from (the main database among them). */
export type AccountsDependencies = AccountServicesDependencies;

/** Accounts, logins, user management and settings; the accounts' one composition. */
export async function registerAccountRoutes(app: FastifyInstance, context: AccountsDependencies): Promise<AccountsForOthers> {
  const services = createAccountServices(context);
  const verification = new VerificationService(services);
  const { users, creation, sessions, options, logWriter, bus, clock } = services;
  const passkeys = createPasskeyService(services, context.database);
  const twoFactor = createTwoFactorModule(services, context.database, (userId) => passkeys.hasPasskey(userId));
  registerPasskeys(app, context.database, services, passkeys, twoFactor);
  registerSessionRoutes(app, services, twoFactor.completeLogin);
  registerTwoFactorRoutes(app, services, twoFactor);
  registerRegistrationRoutes(app, services, verification);
  registerVerificationRoutes(app, services, verification);
  registerOAuthRoutes(app, services, verification, twoFactor.completeLogin, twoFactor.verification);
  registerSelfRoutes(app, new SelfService(services), sessions, twoFactor.verification);
  registerUserAdminRoutes(
    app,
    new UserAdminService({ users, creation, sessions, options, logWriter, bus, clock, balanceChanges: context.balanceChanges }),
    new ListDialect(options),
  );
  registerOptionRoutes(app, context.options);
  const setups = new SetupRepository(context.database.db);
  registerSetupRoutes(app, new SetupService({ setups, users, options, bus, clock, databaseType: context.database.dialect }), sessions);
  return { reverification: twoFactor.verification };
}
