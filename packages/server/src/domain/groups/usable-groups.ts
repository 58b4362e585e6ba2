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
 * new-api's `group_ratio_setting.group_special_usable_group` for one user group: `"-:g"` withdraws
 * group g, `"+:g"` or a bare `"g"` offers it with the value as its label. Anything but text labels
 * under an object is ignored, as new-api ignores what it cannot read.
 */
function applySpecialGroups(groups: Record<string, string>, options: OptionStore, userGroup: string): void {
  const special = options.getJson<Record<string, unknown>>('group_ratio_setting.group_special_usable_group')?.[userGroup];
  if (typeof special !== 'object' || special === null || Array.isArray(special)) return;
  for (const [entry, label] of Object.entries(special)) {
    if (typeof label !== 'string') continue;
    if (entry.startsWith('-:')) delete groups[entry.slice(2)];
    else groups[entry.startsWith('+:') ? entry.slice(2) : entry] = label;
  }
}

/**
 * The groups a user may use, with their labels: the administrator's `UserUsableGroups`, changed for
 * the user's group by `group_special_usable_group`, plus the user's own group (new-api's
 * GetUserUsableGroups). Tokens, the pricing page, `/api/user/self/groups`, the playground and the
 * relay all ask this one rule, so a group the console accepts is never refused by the relay.
 */
export function usableGroups(options: OptionStore, userGroup: string): Record<string, string> {
  const groups = { ...offeredGroups(options) };
  const own = ownGroupOf(userGroup);
  applySpecialGroups(groups, options, own);
  if (!Object.hasOwn(groups, own)) groups[own] = ownGroupLabel;
  return groups;
}

/** Whether `group` is one of `usableGroups(options, userGroup)` (the relay asks per request). */
export function mayUseGroup(options: OptionStore, userGroup: string, group: string): boolean {
  return group === ownGroupOf(userGroup) || Object.hasOwn(usableGroups(options, userGroup), group);
}

/** new-api's GetUserAutoGroup: the `AutoGroups` the user may use, in their order. */
export function autoGroupsOf(options: OptionStore, userGroup: string): string[] {
  const usable = usableGroups(options, userGroup);
  const configured = options.getJson<unknown[]>('AutoGroups') ?? [];
  return configured.filter((group): group is string => typeof group === 'string' && Object.hasOwn(usable, group));
}
