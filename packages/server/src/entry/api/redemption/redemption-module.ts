import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { RedemptionRepository } from './redemption.repository.ts';
import { registerRedemptionRoutes } from './redemption.routes.ts';
import { RedemptionService } from './redemption.service.ts';

/** The redemption module's one composition: its repository and service, built once, handed to its routes. */
export function registerRedemptionModule(app: FastifyInstance, context: AppContext): void {
  const repository = new RedemptionRepository(context.database.db, context.database.dialect);
  registerRedemptionRoutes(app, new RedemptionService({ repository, options: context.options, clock: context.clock }), new ListDialect(context.options));
}
