import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { PrefillGroupRepository } from './prefill-group.repository.ts';
import { registerPrefillGroupRoutes } from './prefill-group.routes.ts';
import { PrefillGroupService } from './prefill-group.service.ts';

/** The prefill group module's one composition. */
export function registerPrefillGroupModule(app: FastifyInstance, context: AppContext): void {
  const repository = new PrefillGroupRepository(context.database.db, context.database.dialect);
  registerPrefillGroupRoutes(app, new PrefillGroupService({ repository, clock: context.clock }));
}
