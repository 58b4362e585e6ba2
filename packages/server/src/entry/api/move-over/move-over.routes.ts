import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import type { MoveOverService } from './move-over.service.ts';

const root = { config: { access: 'root' as const } };

/** `/api/move-over`: the root's one-time notice about the one-api mapping, and its dismissal. */
export function registerMoveOverRoutes(app: FastifyInstance, service: MoveOverService): void {
  app.get('/api/move-over', root, async () => ok(await service.notice()));
  app.post('/api/move-over/dismiss', root, async () => {
    await service.dismiss();
    return ok();
  });
}
