import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { ChannelRepository } from '../channel/channel.repository.ts';
import { ChannelStatsRepository } from './channel-stats.repository.ts';
import { ChannelStatsService } from './channel-stats.service.ts';
import { registerDataRoutes } from './data.routes.ts';
import { QuotaDataRepository } from './quota-data.repository.ts';
import { QuotaDataService } from './quota-data.service.ts';

/** The data dashboard's one composition: its repositories (main and log database) and services, built once. */
export function registerDataModule(app: FastifyInstance, context: AppContext): void {
  const repository = new QuotaDataRepository(context.database.db, context.logDatabase.db);
  const channels = new ChannelStatsService({
    repository: new ChannelStatsRepository(context.logDatabase.db),
    channels: new ChannelRepository(context.database.db, context.database.dialect),
    clock: context.clock,
  });
  registerDataRoutes(app, new QuotaDataService({ repository, clock: context.clock }), channels);
}
