import type { PricingAnswer } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../../core/http/envelope.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import type { PricingService } from './pricing.service.ts';

/** `?models=a,b`: the models to check, comma-separated as a channel's model list is; absent, every channel's models. */
const unpricedQuery = z.object({ models: z.string().max(100_000).optional() });

/** `GET /api/pricing` is public; a logged-in caller sees the groups of their own user group. */
export function registerPricingRoutes(app: FastifyInstance, service: PricingService): void {
  app.get('/api/pricing', { config: { access: 'public' } }, async (request) => {
    const pricing = await service.pricing(request.currentUser?.group ?? '');
    // The classic console reads group_ratio and usable_group beside `data`; new-api's later one also vendors and endpoints.
    return {
      ...ok(pricing.data),
      group_ratio: pricing.group_ratio,
      usable_group: pricing.usable_group,
      vendors: pricing.vendors,
      supported_endpoint: pricing.supported_endpoint,
    } satisfies PricingAnswer;
  });

  app.get('/api/pricing/unpriced', { config: { access: 'admin' } }, async (request) => {
    const { models } = parseInput(unpricedQuery, request.query);
    const named =
      models === undefined
        ? undefined
        : models
            .split(',')
            .map((model) => model.trim())
            .filter(Boolean);
    return ok(await service.unpriced(named));
  });
}
