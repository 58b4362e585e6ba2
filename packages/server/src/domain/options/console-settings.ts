import type { AnnouncementItem, ApiInfoItem, FaqItem, OptionKey, UptimeKumaGroup } from '@switchboard/contracts';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import type { OptionStore } from './option-store.ts';

type ListKey = 'console_setting.api_info' | 'console_setting.announcements' | 'console_setting.faq' | 'console_setting.uptime_kuma_groups';

/** A stored panel list as its items; '' or anything unreadable (a value imported unchecked) reads as none, as in new-api. */
function storedList<T>(options: OptionStore, key: ListKey & OptionKey): T[] {
  const parsed = safeParseJson(options.get(key));
  if (!parsed.ok || !Array.isArray(parsed.value)) return [];
  return parsed.value.filter((item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item)) as T[];
}

const publishedAt = (item: AnnouncementItem) => {
  const time = typeof item.publishDate === 'string' ? Date.parse(item.publishDate) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

export const apiInfoOf = (options: OptionStore) => storedList<ApiInfoItem>(options, 'console_setting.api_info');
export const faqOf = (options: OptionStore) => storedList<FaqItem>(options, 'console_setting.faq');
export const uptimeKumaGroupsOf = (options: OptionStore) => storedList<UptimeKumaGroup>(options, 'console_setting.uptime_kuma_groups');

/** Announcements newest first (a stable sort; one without a readable date goes last), as new-api lists them. */
export function announcementsOf(options: OptionStore): AnnouncementItem[] {
  return storedList<AnnouncementItem>(options, 'console_setting.announcements').sort((left, right) => publishedAt(right) - publishedAt(left));
}
