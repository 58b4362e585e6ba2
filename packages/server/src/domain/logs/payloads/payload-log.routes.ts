import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import { ok } from '../../../core/http/envelope.ts';
import { PayloadLogRepository } from './payload-log.repository.ts';
import { PayloadLogService } from './payload-log.service.ts';

/** Stored request and response bodies of a log row: administrators only (users never see payloads). */
export function registerPayloadLogRoutes(app: FastifyInstance, context: { readonly logDatabase: DatabaseHandle }): void {
  const service = new PayloadLogService(new PayloadLogRepository(context.logDatabase));
  app.get('/api/log/:id/payload', { config: { access: 'admin' } }, async (request) => ok(await service.ofLog(routeId(request.params))));
}
