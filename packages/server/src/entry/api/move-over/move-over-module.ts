import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import { MoveOverRepository } from './move-over.repository.ts';
import { registerMoveOverRoutes } from './move-over.routes.ts';
import { MoveOverService } from './move-over.service.ts';

/** What the move-over report uses: the main database and the clock. */
export interface MoveOverDependencies {
  readonly database: DatabaseHandle;
  readonly clock: Clock;
}

/** The move-over notice module's one composition. */
export function registerMoveOverModule(app: FastifyInstance, context: MoveOverDependencies): void {
  registerMoveOverRoutes(app, new MoveOverService({ repository: new MoveOverRepository(context.database.db), clock: context.clock }));
}
