import type { OptionStore } from '../options/option-store.ts';
import type { ModelRequestLimit } from './relay-limit-plan.ts';

function isCountPair(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && value.every((count) => typeof count === 'number' && Number.isFinite(count));
}

/**
 * new-api's per-user model request limit for a request relayed in `group` (the token's group, else
 * the user's): `ModelRequestRateLimitGroup` `{"group": [total, success]}` overrides the global counts
 * for that group, the window (`…DurationMinutes`) is shared. Undefined when it is off or counts nothing.
 */
export function modelRequestLimitFor(options: OptionStore, group: string): ModelRequestLimit | undefined {
  if (!options.getBoolean('ModelRequestRateLimitEnabled')) return undefined;
  const override = options.getJson<Record<string, unknown> | null>('ModelRequestRateLimitGroup')?.[group];
  const [total, success] = isCountPair(override)
    ? override
    : [options.getNumber('ModelRequestRateLimitCount'), options.getNumber('ModelRequestRateLimitSuccessCount')];
  if (total <= 0 && success <= 0) return undefined;
  return { durationMinutes: options.getNumber('ModelRequestRateLimitDurationMinutes'), total, success };
}
