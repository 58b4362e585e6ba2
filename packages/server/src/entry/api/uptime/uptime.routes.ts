import type { UptimeGroupStatus } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import type { OutgoingRequests } from '../../../core/platform/outgoing/outgoing-requests.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ok } from '../../../core/http/envelope.ts';
import { uptimeKumaGroupsOf } from '../../../domain/options/console-settings.ts';
import { fetchGroupStatus } from './uptime-kuma-status.ts';

/**
 * Anyone may call this route, so one answer serves every caller for a while (visitors cannot make
 * the server hammer a status page); a change of the groups or of the outgoing-request policy drops it.
 */
const reuseForMs = 30_000;

/** What the Uptime Kuma route uses: the configured groups and the outgoing-request policy. */
export interface UptimeDependencies {
  readonly options: OptionStore;
  readonly outgoing: OutgoingRequests;
}

/**
 * `GET /api/uptime/status` (public, as in new-api): the configured Uptime Kuma status pages
 * (`console_setting.uptime_kuma_groups`), fetched through the outgoing-request policy (fetch_setting),
 * one entry per group in the configured order.
 */
export function registerUptimeRoutes(app: FastifyInstance, context: UptimeDependencies): void {
  let last: { at: number; answer: Promise<UptimeGroupStatus[]> } | undefined;
  context.options.onChange((key) => {
    if (key === 'console_setting.uptime_kuma_groups' || key.startsWith('fetch_setting.')) last = undefined;
  });
  app.get('/api/uptime/status', { config: { access: 'public' } }, async () => {
    if (!last || Date.now() - last.at > reuseForMs) {
      const groups = uptimeKumaGroupsOf(context.options);
      last = { at: Date.now(), answer: Promise.all(groups.map((group) => fetchGroupStatus(group, context.outgoing))) };
    }
    return ok(await last.answer);
  });
}
