import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import type { AppContext } from '../../../app-context.ts';
import { registerCompatStatusRoutes } from './compat.routes.ts';
import { registerContentRoutes } from './content.routes.ts';
import { buildSystemStatus } from './status.service.ts';
import { registerUptimeRoutes } from '../uptime/uptime.routes.ts';

export function registerStatusRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/api/status', { config: { access: 'public' } }, async () =>
    ok(buildSystemStatus(context.options, { version: context.version, startTime: context.startTime })),
  );
  registerContentRoutes(app, context);
  registerCompatStatusRoutes(app, context.options);
  registerUptimeRoutes(app, context);
}
