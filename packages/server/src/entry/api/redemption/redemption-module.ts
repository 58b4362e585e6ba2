import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { RedemptionRepository } from './redemption.repository.ts';
import { registerRedemptionRoutes } from './redemption.routes.ts';
import { RedemptionService } from './redemption.service.ts';

/** What the redemption codes use: their table, the options and the clock. */
export interface RedemptionDependencies {
  readonly database: DatabaseHandle;
  readonly options: OptionStore;
  readonly clock: Clock;
}

/** The redemption module's one composition: its repository and service, built once, handed to its routes. */
export function registerRedemptionModule(app: FastifyInstance, context: RedemptionDependencies): void {
  const repository = new RedemptionRepository(context.database.db, context.database.dialect);
  registerRedemptionRoutes(app, new RedemptionService({ repository, options: context.options, clock: context.clock }), new ListDialect(context.options));
}
