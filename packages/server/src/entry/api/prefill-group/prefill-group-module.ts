import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import { PrefillGroupRepository } from './prefill-group.repository.ts';
import { registerPrefillGroupRoutes } from './prefill-group.routes.ts';
import { PrefillGroupService } from './prefill-group.service.ts';

/** What the prefill groups use: their table and the clock. */
export interface PrefillGroupDependencies {
  readonly database: DatabaseHandle;
  readonly clock: Clock;
}

/** The prefill group module's one composition. */
export function registerPrefillGroupModule(app: FastifyInstance, context: PrefillGroupDependencies): void {
  const repository = new PrefillGroupRepository(context.database.db, context.database.dialect);
  registerPrefillGroupRoutes(app, new PrefillGroupService({ repository, clock: context.clock }));
}
