import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../core/config/config.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import { ChannelRepository } from '../channel/channel.repository.ts';
import { logHourlyReaders } from '../log/log-hourly.repository.ts';
import { LogPageLocator } from '../log/log-page-locator.ts';
import { LogRepository } from '../log/log.repository.ts';
import { UserRepository } from '../user/user.repository.ts';
import { ExportSlots } from './export-slots.ts';
import { registerExportRoutes } from './export.routes.ts';
import { ExportRepository } from './export.repository.ts';
import { ExportService } from './export.service.ts';

/** What the CSV exports read: the main tables, the logs, and how long a silent reader is waited for. */
export interface ExportModuleDependencies {
  readonly database: DatabaseHandle;
  /** The database holding `logs` (the main one unless LOG_SQL_DSN is set). */
  readonly logDatabase: DatabaseHandle;
  readonly clock: Clock;
  readonly config: Pick<Config, 'exportReadTimeoutSeconds'>;
}

/** The CSV exports' one composition: main-database tables, logs from the log database. */
export function registerExportModule(app: FastifyInstance, context: ExportModuleDependencies): void {
  const logs = new LogRepository(context.logDatabase.db);
  registerExportRoutes(
    app,
    new ExportService({
      repository: new ExportRepository(context.database.db),
      logs,
      logRanges: new LogPageLocator(logs, logHourlyReaders(context.logDatabase.db, context.logDatabase.dialect)),
      channels: new ChannelRepository(context.database.db, context.database.dialect),
      users: new UserRepository(context.database.db, context.database.dialect),
      clock: context.clock,
    }),
    { slots: new ExportSlots(), readTimeoutMs: context.config.exportReadTimeoutSeconds * 1000 },
  );
}
