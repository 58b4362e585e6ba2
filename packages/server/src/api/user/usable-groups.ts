import type { OptionStore } from '../../options/option-store.ts';

/**
 * The groups a user may pick for a token, with their labels: the UserUsableGroups option plus the
 * user's own group (an administrator may have placed them in one that is not offered to everyone).
 */
export function usableGroupsOf(options: OptionStore, userGroup: string): Record<string, string> {
  const configured = options.getJson<unknown>('UserUsableGroups');
  const groups: Record<string, string> = {};
  if (configured && typeof configured === 'object' && !Array.isArray(configured)) {
    for (const [name, label] of Object.entries(configured)) groups[name] = typeof label === 'string' ? label : name;
  }
  if (userGroup && !(userGroup in groups)) groups[userGroup] = userGroup;
  return groups;
}
