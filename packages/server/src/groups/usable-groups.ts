import type { OptionStore } from '../options/option-store.ts';

/** new-api's label for a user's own group when the administrator does not offer it to everyone. */
const ownGroupLabel = '用户分组';

/** A user without a group is in `default`, the group every new account gets. */
function ownGroupOf(userGroup: string): string {
  return userGroup || 'default';
}

function offeredGroups(options: OptionStore): Record<string, string> {
  return options.getJson<Record<string, string>>('UserUsableGroups') ?? {};
}

/**
 * The groups a user may use, with their labels: the administrator's `UserUsableGroups` plus the
 * user's own group (new-api's GetUserUsableGroups). Tokens, the pricing page, `/api/user/self/groups`,
 * the playground and the relay all ask this one rule, so a group the console accepts is never
 * refused by the relay.
 */
export function usableGroups(options: OptionStore, userGroup: string): Record<string, string> {
  const groups = { ...offeredGroups(options) };
  const own = ownGroupOf(userGroup);
  if (!Object.hasOwn(groups, own)) groups[own] = ownGroupLabel;
  return groups;
}

/** Whether `group` is one of `usableGroups(options, userGroup)`, without building the map (the relay asks per request). */
export function mayUseGroup(options: OptionStore, userGroup: string, group: string): boolean {
  return group === ownGroupOf(userGroup) || Object.hasOwn(offeredGroups(options), group);
}
