import type { OptionStore } from '../../options/option-store.ts';

/**
 * The groups a user may pick for a token (and see prices for): the administrator's UserUsableGroups,
 * plus the user's own group even when it is not listed there (new-api labels it "用户分组").
 */
export function usableGroups(options: OptionStore, userGroup: string): Record<string, string> {
  const groups: Record<string, string> = { ...(options.getJson<Record<string, string>>('UserUsableGroups') ?? {}) };
  if (userGroup === '' && !('default' in groups)) groups.default = 'default';
  if (userGroup !== '' && !(userGroup in groups)) groups[userGroup] = '用户分组';
  return groups;
}

/** Every group that has a ratio: the administrator's group list (`GET /api/group/`). */
export function groupNames(options: OptionStore): string[] {
  return Object.keys(options.getJson<Record<string, number>>('GroupRatio') ?? {});
}
