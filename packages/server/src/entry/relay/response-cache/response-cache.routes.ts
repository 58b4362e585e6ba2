import type { FastifyInstance } from 'fastify';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { ResponseCache } from './response-cache.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { CacheSavingsRepository } from './cache-savings.repository.ts';
import { summariseSavings } from './cache-savings.ts';

/** The longest window the savings report covers. */
const maxDays = 90;

/**
 * POST /api/response_cache/purge (administrators): drops every cached answer. The shared Redis store
 * is emptied once; every process (the other workers, the other instances) hears it on the change bus
 * and empties its own memory store, and the answer waits until they have.
 */
export function registerResponseCacheRoutes(app: FastifyInstance, cache: ResponseCache, bus: ChangeBus, savings: CacheSavingsRepository, clock: Clock): void {
  // GET /api/response_cache/stats?days=7 (administrators): hit rate, tokens and quota saved per model and per token.
  app.get('/api/response_cache/stats', { config: { access: 'admin' } }, async (request) => {
    const asked = Number((request.query as Record<string, unknown>).days ?? 7);
    const days = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, maxDays) : 7;
    const rows = await savings.rowsSince(clock.unixSeconds() - days * 86_400);
    return { success: true, message: '', data: { days, ...summariseSavings(rows) } };
  });
  bus.subscribe(changeTopics.responseCache, () => cache.purge().then(() => undefined));
  app.post('/api/response_cache/purge', { config: { access: 'admin' } }, async () => {
    const dropped = await cache.purge();
    await bus.publish(changeTopics.responseCache, '*');
    return { success: true, message: '', data: { dropped } };
  });
}
