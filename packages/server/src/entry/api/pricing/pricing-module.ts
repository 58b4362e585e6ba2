import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ModelCatalogueRepository } from '../model-catalogue/model-catalogue.repository.ts';
import { loadPricingCatalogue } from '../model-catalogue/pricing-catalogue.ts';
import { PricingRepository } from './pricing.repository.ts';
import { registerPricingRoutes } from './pricing.routes.ts';
import { PricingService } from './pricing.service.ts';

/** What the pricing pages read: the catalogue and price tables, the options. */
export interface PricingDependencies {
  readonly database: DatabaseHandle;
  readonly options: OptionStore;
}

/** The pricing module's one composition: its repository, the model catalogue's, and its service, handed to its route. */
export function registerPricingModule(app: FastifyInstance, context: PricingDependencies): void {
  const catalogue = new ModelCatalogueRepository(context.database.db, context.database.dialect);
  registerPricingRoutes(
    app,
    new PricingService({ repository: new PricingRepository(context.database.db), options: context.options, catalogue: () => loadPricingCatalogue(catalogue) }),
  );
}
