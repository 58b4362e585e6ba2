import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { MoveOverRepository } from './move-over.repository.ts';
import { registerMoveOverRoutes } from './move-over.routes.ts';
import { MoveOverService } from './move-over.service.ts';

/** The move-over notice module's one composition. */
export function registerMoveOverModule(app: FastifyInstance, context: AppContext): void {
  registerMoveOverRoutes(app, new MoveOverService({ repository: new MoveOverRepository(context.database.db), clock: context.clock }));
}
