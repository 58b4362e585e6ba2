import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import { ChannelRepository } from '../channel/channel.repository.ts';
import { UserRepository } from '../user/user.repository.ts';
import { logHourlyReaders, logHourlyRepositories } from './log-hourly.repository.ts';
import { LogRepository } from './log.repository.ts';
import { registerLogRoutes } from './log.routes.ts';
import { LogService } from './log.service.ts';
import { registerPayloadLogRoutes } from '../../../domain/logs/payloads/payload-log.routes.ts';

/** What the log module reads: the logs (and payloads) in the log database, channel and user names in the main one. */
export interface LogModuleDependencies {
  readonly database: DatabaseHandle;
  /** The database holding `logs` (the main one unless LOG_SQL_DSN is set). */
  readonly logDatabase: DatabaseHandle;
  readonly clock: Clock;
}

/** The log module's one composition: repositories of the log database (and channel names from the main one), built once. */
export function registerLogModule(app: FastifyInstance, context: LogModuleDependencies): void {
  registerLogRoutes(
    app,
    new LogService({
      repository: new LogRepository(context.logDatabase.db),
      hourly: logHourlyRepositories(context.logDatabase.db, context.logDatabase.dialect),
      hourlyReaders: logHourlyReaders(context.logDatabase.db, context.logDatabase.dialect),
      channels: new ChannelRepository(context.database.db, context.database.dialect),
      users: new UserRepository(context.database.db, context.database.dialect),
      clock: context.clock,
    }),
  );
  registerPayloadLogRoutes(app, context);
}
