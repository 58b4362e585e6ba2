import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { ok } from '../../../core/http/envelope.ts';
import { listFilterNumber, textParameter } from '../../../core/http/listing/query-parameters.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import type { ChannelStatsService } from './channel-stats.service.ts';
import type { QuotaDataService, UsageQuery } from './quota-data.service.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const user = { config: { access: 'user' as const } };

function rangeFrom(query: Query): UsageQuery {
  return { from: listFilterNumber(query, 'start_timestamp'), to: listFilterNumber(query, 'end_timestamp') };
}

/** Hourly usage for the data dashboard (`quota_data` and the logs it has not counted yet), and per-channel traffic. */
export function registerDataRoutes(app: FastifyInstance, service: QuotaDataService, channels: ChannelStatsService): void {
  for (const url of withAndWithoutSlash('/api/data/')) {
    app.get(url, admin, async (request) => {
      const query = request.query as Query;
      return ok(await service.usage({ ...rangeFrom(query), username: textParameter(query, 'username') }));
    });
  }
  for (const url of withAndWithoutSlash('/api/data/users')) {
    app.get(url, admin, async (request) => ok(await service.usagePerUser(rangeFrom(request.query as Query))));
  }
  // Per channel (calls, errors, latency percentiles, cost): the dashboard's administrator view.
  for (const url of withAndWithoutSlash('/api/data/channels')) {
    app.get(url, admin, async (request) => ok(await channels.perChannel(rangeFrom(request.query as Query))));
  }
  for (const url of withAndWithoutSlash('/api/data/self')) {
    app.get(url, user, async (request) => ok(await service.usage({ ...rangeFrom(request.query as Query), userId: requireUser(request).id })));
  }
}
