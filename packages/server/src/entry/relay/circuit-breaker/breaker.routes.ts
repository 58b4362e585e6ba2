import type { FastifyInstance } from 'fastify';
import type { ChannelCache } from '../cache/channel-cache.ts';
import type { ChannelBreakers } from './channel-breakers.ts';

/** GET /api/channel/breaker (administrators): the channels whose breaker is not wholly closed, for the channel list. */
export function registerBreakerRoutes(app: FastifyInstance, breakers: ChannelBreakers, channels: ChannelCache): void {
  app.get('/api/channel/breaker', { config: { access: 'admin' } }, async () => ({
    success: true,
    message: '',
    data: breakers.snapshot((id) => channels.get(id)?.keys.length),
  }));
}
