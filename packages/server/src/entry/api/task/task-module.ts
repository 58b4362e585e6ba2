import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { TaskRepository } from './task.repository.ts';
import { registerTaskRoutes } from './task.routes.ts';
import { TaskService } from './task.service.ts';

/** What the task list reads: the task tables and the options. */
export interface TaskModuleDependencies {
  readonly database: DatabaseHandle;
  readonly options: OptionStore;
}

/** The task module's one composition: its repository and service, built once, handed to its routes. */
export function registerTaskModule(app: FastifyInstance, context: TaskModuleDependencies): void {
  registerTaskRoutes(app, new TaskService({ repository: new TaskRepository(context.database.db), options: context.options }), new ListDialect(context.options));
}
