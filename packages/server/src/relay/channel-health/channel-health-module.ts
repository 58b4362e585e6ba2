import type { FastifyInstance } from 'fastify';
import type { RelayServices } from '../relay-services.ts';
import { ChannelStatusRepository } from './channel-status.repository.ts';
import { registerChannelTestRoutes } from './channel-test.routes.ts';
import { ChannelTestService } from './channel-test.service.ts';

/** A test request waits at least this long, whatever the relay's own header timeout. */
const minimumTestTimeoutMs = 5_000;

/** The channel tests' one composition: their repository and service, built once, handed to their routes. */
export function registerChannelHealthModule(app: FastifyInstance, services: RelayServices): void {
  const { context } = services;
  registerChannelTestRoutes(
    app,
    new ChannelTestService({
      channels: services.channels,
      health: services.health,
      repository: new ChannelStatusRepository(context.database.db),
      options: context.options,
      clock: context.clock,
      logger: context.logger,
      timeoutMs: Math.max(services.timeouts.headersMs, minimumTestTimeoutMs),
    }),
  );
}
