import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import { ModelCatalogueRepository } from './model-catalogue.repository.ts';
import { registerModelCatalogueRoutes } from './model-catalogue.routes.ts';
import { ModelMetaService } from './model-meta.service.ts';
import { ModelSyncService } from './model-sync.service.ts';
import { VendorService } from './vendor.service.ts';

/** What the model catalogue uses: its table and the clock. */
export interface ModelCatalogueDependencies {
  readonly database: DatabaseHandle;
  readonly clock: Clock;
}

/** The model catalogue's one composition: one repository shared by its three services. */
export function registerModelCatalogueModule(app: FastifyInstance, context: ModelCatalogueDependencies): void {
  const repository = new ModelCatalogueRepository(context.database.db, context.database.dialect);
  const dependencies = { repository, clock: context.clock };
  registerModelCatalogueRoutes(app, {
    models: new ModelMetaService(dependencies),
    vendors: new VendorService(dependencies),
    sync: new ModelSyncService(dependencies),
  });
}
