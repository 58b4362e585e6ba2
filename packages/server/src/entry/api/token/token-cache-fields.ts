import { z } from 'zod';
import { fromBoolean } from '../../../core/db/dialect.ts';
import type { TokenUpdate } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { readFallbackMap } from '../../relay/fallbacks/model-fallbacks.ts';
import { responseCacheMessages } from '../../relay/response-cache/response-cache.messages.ts';

/**
 * The owner's response-cache opt-out and model-fallback override on the wire (migration 0030's
 * columns); absent leaves them as they are. Fallbacks are JSON text like the `ModelFallbacks` option,
 * '' for none of the token's own.
 */
export const tokenCacheFields = { response_cache_off: z.boolean().nullish(), model_fallbacks: z.string().nullish() };

/** The columns a create or update writes; a fallback map that is not one is refused with its shape. */
export function tokenCacheColumns(fields: {
  response_cache_off?: boolean | null | undefined;
  model_fallbacks?: string | null | undefined;
}): Pick<TokenUpdate, 'response_cache_off' | 'model_fallbacks'> {
  const columns: Pick<TokenUpdate, 'response_cache_off' | 'model_fallbacks'> = {};
  if (fields.response_cache_off !== undefined && fields.response_cache_off !== null) columns.response_cache_off = fromBoolean(fields.response_cache_off);
  if (fields.model_fallbacks !== undefined && fields.model_fallbacks !== null) {
    const text = fields.model_fallbacks.trim();
    if (text !== '') {
      const parsed = safeParseJson(text);
      const read = parsed.ok ? readFallbackMap(parsed.value) : undefined;
      if (!read?.ok) throw new AppError(responseCacheMessages.tokenFallbacksBad);
    }
    columns.model_fallbacks = text;
  }
  return columns;
}
