import type { FastifyInstance } from 'fastify';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { BalanceChanges } from '../../../domain/billing/balance-changes.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { TwoFactorRepository } from '../two-factor/two-factor.repository.ts';
import { TokenRepository } from './token.repository.ts';
import { registerTokenRoutes } from './token.routes.ts';
import { TokenService } from './token.service.ts';

/** What the token module uses: the tokens and second factors, settings, clock, and who hears of a change. */
export interface TokenModuleDependencies {
  readonly database: DatabaseHandle;
  readonly options: OptionStore;
  readonly bus: ChangeBus;
  readonly clock: Clock;
  readonly balanceChanges: BalanceChanges;
}

/** The token module's one composition: its repository and service, built once, handed to its routes. */
export function registerTokenModule(app: FastifyInstance, context: TokenModuleDependencies): void {
  const repository = new TokenRepository(context.database.db, context.database.dialect);
  const twoFactor = new TwoFactorRepository(context.database.db);
  const hidesKeys = async (userId: number) => (await twoFactor.find(userId))?.enabled === true;
  registerTokenRoutes(
    app,
    new TokenService({ repository, options: context.options, bus: context.bus, clock: context.clock, balanceChanges: context.balanceChanges }),
    hidesKeys,
    new ListDialect(context.options),
  );
}
