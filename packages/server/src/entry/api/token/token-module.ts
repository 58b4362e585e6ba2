import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { TwoFactorRepository } from '../two-factor/two-factor.repository.ts';
import { TokenRepository } from './token.repository.ts';
import { registerTokenRoutes } from './token.routes.ts';
import { TokenService } from './token.service.ts';

/** The token module's one composition: its repository and service, built once, handed to its routes. */
export function registerTokenModule(app: FastifyInstance, context: AppContext): void {
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
