import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ChannelRepository } from '../channel/channel.repository.ts';
import { ChannelStatsRepository } from './channel-stats.repository.ts';
import { ChannelStatsService } from './channel-stats.service.ts';
import { registerDataRoutes } from './data.routes.ts';
import { QuotaDataRepository } from './quota-data.repository.ts';
import { QuotaDataService } from './quota-data.service.ts';

/** What the data dashboard reads: usage from the log database, channel names from the main one. */
export interface DataModuleDependencies {
  readonly database: DatabaseHandle;
  /** The database holding `logs` (the main one unless LOG_SQL_DSN is set). */
  readonly logDatabase: DatabaseHandle;
  readonly clock: Clock;
  /** `DataExportEnabled`: whether the hourly usage's roll-up runs (and its watermark keeps up). */
  readonly options: OptionStore;
}

/** The data dashboard's one composition: its repositories (main and log database) and services, built once. */
export function registerDataModule(app: FastifyInstance, context: DataModuleDependencies): void {
  const repository = new QuotaDataRepository(context.database.db, context.logDatabase.db);
  const channels = new ChannelStatsService({
    repository: new ChannelStatsRepository(context.logDatabase.db),
    channels: new ChannelRepository(context.database.db, context.database.dialect),
    clock: context.clock,
  });
  registerDataRoutes(app, new QuotaDataService({ repository, clock: context.clock, rollUpRuns: () => context.options.getBoolean('DataExportEnabled') }), channels);
}
