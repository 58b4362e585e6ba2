import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { TaskRepository } from './task.repository.ts';
import { registerTaskRoutes } from './task.routes.ts';
import { TaskService } from './task.service.ts';

/** The task module's one composition: its repository and service, built once, handed to its routes. */
export function registerTaskModule(app: FastifyInstance, context: AppContext): void {
  registerTaskRoutes(app, new TaskService({ repository: new TaskRepository(context.database.db), options: context.options }), new ListDialect(context.options));
}
