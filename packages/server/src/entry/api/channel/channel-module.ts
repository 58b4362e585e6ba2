import type { FastifyInstance } from 'fastify';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import type { RecentVerification } from '../two-factor/recent-verification.ts';
import { ChannelUpstreamService } from './channel-upstream.service.ts';
import { ChannelRepository } from './channel.repository.ts';
import { registerChannelRoutes } from './channel.routes.ts';
import { ChannelService } from './channel.service.ts';
import { knownModels } from './model-catalogue.ts';

/** What the channel module uses: its table, settings, the clock, the change bus and the manage log. */
export interface ChannelModuleDependencies {
  readonly database: DatabaseHandle;
  readonly options: OptionStore;
  readonly bus: ChangeBus;
  readonly logWriter: LogWriter;
  readonly clock: Clock;
}

/** The channel module's one composition: its repository and services, built once, handed to its routes. */
export function registerChannelModule(app: FastifyInstance, context: ChannelModuleDependencies, reverification: Pick<RecentVerification, 'assert'>): void {
  const repository = new ChannelRepository(context.database.db, context.database.dialect);
  registerChannelRoutes(app, {
    service: new ChannelService({ repository, bus: context.bus, logWriter: context.logWriter, clock: context.clock }),
    upstream: new ChannelUpstreamService(repository, context.clock),
    knownModels: () => knownModels(context.options, context.clock.unixSeconds()),
    lists: new ListDialect(context.options),
    reverification,
  });
}
