import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerDataRoutes } from './data.routes.ts';
import { QuotaDataRepository } from './quota-data.repository.ts';
import { QuotaDataService } from './quota-data.service.ts';

/** The data dashboard's one composition: its repository (main and log database) and service, built once. */
export function registerDataModule(app: FastifyInstance, context: AppContext): void {
  const repository = new QuotaDataRepository(context.database.db, context.logDatabase.db);
  registerDataRoutes(app, new QuotaDataService({ repository, clock: context.clock }));
}
