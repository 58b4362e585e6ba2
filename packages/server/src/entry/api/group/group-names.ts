import type { OptionStore } from '../../../domain/options/option-store.ts';

/** Every group that has a ratio: the administrator's group list (`GET /api/group/`). */
export function groupNames(options: OptionStore): string[] {
  return Object.keys(options.getJson<Record<string, number>>('GroupRatio') ?? {});
}
