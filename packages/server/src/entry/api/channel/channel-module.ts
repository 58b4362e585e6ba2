import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import type { RecentVerification } from '../two-factor/recent-verification.ts';
import { ChannelUpstreamService } from './channel-upstream.service.ts';
import { ChannelRepository } from './channel.repository.ts';
import { registerChannelRoutes } from './channel.routes.ts';
import { ChannelService } from './channel.service.ts';
import { knownModels } from './model-catalogue.ts';

/** The channel module's one composition: its repository and services, built once, handed to its routes. */
export function registerChannelModule(app: FastifyInstance, context: AppContext, reverification: Pick<RecentVerification, 'assert'>): void {
  const repository = new ChannelRepository(context.database.db, context.database.dialect);
  registerChannelRoutes(app, {
    service: new ChannelService({ repository, bus: context.bus, logWriter: context.logWriter, clock: context.clock }),
    upstream: new ChannelUpstreamService(repository, context.clock),
    knownModels: () => knownModels(context.options, context.clock.unixSeconds()),
    lists: new ListDialect(context.options),
    reverification,
  });
}
