/**
 * new-api's dashboard panels, as its `console_setting.*` options hold them (JSON arrays) and as
 * `GET /api/status` and `GET /api/uptime/status` answer them. Field names are new-api's.
 */

/** The colours new-api's console offers for an API address's avatar. */
export const apiInfoColors = [
  'blue',
  'green',
  'cyan',
  'purple',
  'pink',
  'red',
  'orange',
  'amber',
  'yellow',
  'lime',
  'light-green',
  'teal',
  'light-blue',
  'indigo',
  'violet',
  'grey',
  'slate',
] as const;

export const announcementTypes = ['default', 'ongoing', 'success', 'warning', 'error'] as const;

/** `console_setting.api_info`: an address users may call, with the route it serves and a note. */
export interface ApiInfoItem {
  url: string;
  route: string;
  description: string;
  color: string;
}

/** `console_setting.announcements`: `publishDate` is RFC 3339; `type` one of announcementTypes; `extra` a short note. */
export interface AnnouncementItem {
  content: string;
  publishDate: string;
  type?: string;
  extra?: string;
}

/** `console_setting.faq`. */
export interface FaqItem {
  question: string;
  answer: string;
}

/** `console_setting.uptime_kuma_groups`: one Uptime Kuma status page (its base address and slug) shown under a category. */
export interface UptimeKumaGroup {
  categoryName: string;
  url: string;
  slug: string;
  description?: string;
}

/** One monitor of `GET /api/uptime/status`: 24-hour uptime (0…1) and the last heartbeat's status (Uptime Kuma's 0 down, 1 up, 2 pending, 3 maintenance). */
export interface UptimeMonitor {
  name: string;
  uptime: number;
  status: number;
  group?: string;
}

/** `GET /api/uptime/status`: one entry per configured group, in the configured order. */
export interface UptimeGroupStatus {
  categoryName: string;
  monitors: UptimeMonitor[];
}
