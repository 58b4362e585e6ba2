import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { ok } from '../../http/envelope.ts';
import { buildPricing, servedModels } from './pricing.service.ts';

/** `GET /api/pricing` is public; a logged-in caller sees the groups of their own user group. */
export function registerPricingRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/api/pricing', { config: { access: 'public' } }, async (request) => {
    const pricing = buildPricing(context.options, await servedModels(context.database.db), request.currentUser?.group ?? '');
    // The classic console reads group_ratio and usable_group beside `data`.
    return { ...ok(pricing.data), group_ratio: pricing.group_ratio, usable_group: pricing.usable_group };
  });
}
