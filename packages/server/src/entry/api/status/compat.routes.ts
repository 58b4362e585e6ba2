import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../core/http/app-error.ts';
import { ok } from '../../../core/http/envelope.ts';
import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';

const ratioConfigOff: LocalizedMessage = { zh: '倍率配置接口未启用', en: 'The ratio configuration endpoint is not enabled' };

/**
 * A public route new-api's later console and instances call: `/api/ratio_config` shares the model
 * ratios and prices with other instances (their "ratio sync") when `ExposeRatioEnabled` is on, else
 * 403 as in new-api.
 */
export function registerCompatStatusRoutes(app: FastifyInstance, options: OptionStore): void {
  app.get('/api/ratio_config', { config: { access: 'public' } }, async () => {
    if (!options.getBoolean('ExposeRatioEnabled')) throw new AppError(ratioConfigOff, { status: 403 });
    return ok({
      model_ratio: options.getJson('ModelRatio') ?? {},
      completion_ratio: options.getJson('CompletionRatio') ?? {},
      cache_ratio: options.getJson('CacheRatio') ?? {},
      model_price: options.getJson('ModelPrice') ?? {},
    });
  });
}
