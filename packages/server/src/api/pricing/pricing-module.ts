import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { PricingRepository } from './pricing.repository.ts';
import { registerPricingRoutes } from './pricing.routes.ts';
import { PricingService } from './pricing.service.ts';

/** The pricing module's one composition: its repository and service, built once, handed to its route. */
export function registerPricingModule(app: FastifyInstance, context: AppContext): void {
  registerPricingRoutes(app, new PricingService({ repository: new PricingRepository(context.database.db), options: context.options }));
}
