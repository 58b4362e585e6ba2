import type { FastifyInstance } from 'fastify';
import type { ChangeBus } from '../../platform/change-bus.ts';
import { changeTopics } from '../../platform/change-topics.ts';
import type { ResponseCache } from './response-cache.ts';

/**
 * POST /api/response_cache/purge (administrators): drops every cached answer. The shared Redis store
 * is emptied once; every process (the other workers, the other instances) hears it on the change bus
 * and empties its own memory store, and the answer waits until they have.
 */
export function registerResponseCacheRoutes(app: FastifyInstance, cache: ResponseCache, bus: ChangeBus): void {
  bus.subscribe(changeTopics.responseCache, () => cache.purge().then(() => undefined));
  app.post('/api/response_cache/purge', { config: { access: 'admin' } }, async () => {
    const dropped = await cache.purge();
    await bus.publish(changeTopics.responseCache, '*');
    return { success: true, message: '', data: { dropped } };
  });
}
