import type { UptimeGroupStatus, UptimeKumaGroup, UptimeMonitor } from '@switchboard/contracts';
import { z } from 'zod';
import type { OutgoingRequests } from '../../../core/platform/outgoing/outgoing-requests.ts';
import { callOutsideJson } from '../../../core/platform/outside-json.ts';

/**
 * Uptime Kuma's public status page API, the two calls its own status page makes:
 * `GET /api/status-page/<slug>` (the page's public groups and their monitors) and
 * `GET /api/status-page/heartbeat/<slug>` (per monitor id: recent heartbeats, oldest first, and the
 * uptime, keyed `<id>_24` by Uptime Kuma 1.x and `<id>` by 2.x, which also sends `0` for an empty
 * beat). Only the fields read here are checked; recorded examples are in `__fixtures__/`.
 */
const statusPage = z.object({
  publicGroupList: z
    .array(z.object({ name: z.string().catch(''), monitorList: z.array(z.object({ id: z.number(), name: z.string().catch('') })).catch([]) }))
    .catch([]),
});
const heartbeats = z.object({
  heartbeatList: z.record(z.string(), z.array(z.union([z.object({ status: z.number() }), z.number()])).catch([])).catch({}),
  uptimeList: z.record(z.string(), z.number()).catch({}),
});

async function fetchJson<T>(url: string, schema: z.ZodType<T>, outgoing: OutgoingRequests): Promise<T> {
  const answer = await callOutsideJson(url, { via: outgoing });
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  return schema.parse(answer.body);
}

/**
 * The newest heartbeat's status (the last of the list; new-api reads the first, the oldest of up to a
 * hundred, which shows a monitor that went down an hour ago as up). Uptime Kuma 2.x's empty beats (`0`)
 * are skipped; 0 (down) when there is no beat at all.
 */
function latestStatus(beats: ReadonlyArray<{ status: number } | number> | undefined): number {
  const newest = beats?.findLast((beat) => typeof beat === 'object');
  return typeof newest === 'object' ? newest.status : 0;
}

/**
 * One configured group's monitors, as new-api's `GET /api/uptime/status` answers them: every monitor
 * of every public group of the status page, with its group's name, its 24-hour uptime and its latest
 * heartbeat's status. A page that cannot be read gives the group no monitors (never an error).
 */
export async function fetchGroupStatus(group: UptimeKumaGroup, outgoing: OutgoingRequests): Promise<UptimeGroupStatus> {
  const result: UptimeGroupStatus = { categoryName: group.categoryName ?? '', monitors: [] };
  if (!group.url || !group.slug) return result;
  const base = group.url.replace(/\/+$/, '');
  const slug = encodeURIComponent(group.slug);
  // Both calls are waited for (no request is left running after the answer); either failing leaves the group empty, as in new-api.
  const [page, beats] = await Promise.allSettled([
    fetchJson(`${base}/api/status-page/${slug}`, statusPage, outgoing),
    fetchJson(`${base}/api/status-page/heartbeat/${slug}`, heartbeats, outgoing),
  ]);
  if (page.status === 'rejected' || beats.status === 'rejected') return result;
  for (const publicGroup of page.value.publicGroupList) {
    for (const monitor of publicGroup.monitorList) {
      const id = String(monitor.id);
      const uptimes = beats.value.uptimeList;
      const entry: UptimeMonitor = { name: monitor.name, uptime: uptimes[`${id}_24`] ?? uptimes[id] ?? 0, status: latestStatus(beats.value.heartbeatList[id]) };
      if (publicGroup.name) entry.group = publicGroup.name;
      result.monitors.push(entry);
    }
  }
  return result;
}
