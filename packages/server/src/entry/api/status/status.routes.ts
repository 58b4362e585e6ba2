import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import type { OutgoingRequests } from '../../../core/platform/outgoing/outgoing-requests.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { registerCompatStatusRoutes } from './compat.routes.ts';
import { registerContentRoutes } from './content.routes.ts';
import { buildSystemStatus } from './status.service.ts';
import { registerUptimeRoutes } from '../uptime/uptime.routes.ts';

/** What the status routes read: the options, this build's version and start time, and (Uptime Kuma) the outgoing-request policy. */
export interface StatusDependencies {
  readonly options: OptionStore;
  readonly outgoing: OutgoingRequests;
  readonly version: string;
  readonly startTime: number;
}

export function registerStatusRoutes(app: FastifyInstance, context: StatusDependencies): void {
  app.get('/api/status', { config: { access: 'public' } }, async () =>
    ok(buildSystemStatus(context.options, { version: context.version, startTime: context.startTime })),
  );
  registerContentRoutes(app, context);
  registerCompatStatusRoutes(app, context.options);
  registerUptimeRoutes(app, context);
}
