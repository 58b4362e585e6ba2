import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import { integerParameter, textParameter } from '../listing/page-query.ts';
import { withAndWithoutSlash } from '../listing/route-paths.ts';
import { type QuotaDataRange, QuotaDataRepository } from './quota-data.repository.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const user = { config: { access: 'user' as const } };
const day = 86_400;

/** The requested range; without one, the last day (the dashboard always sends both ends). */
function rangeFrom(query: Query, now: number): QuotaDataRange {
  const to = integerParameter(query, 'end_timestamp') ?? now;
  const from = integerParameter(query, 'start_timestamp') ?? to - day;
  return { from, to };
}

/** Hourly usage for the data dashboard (`quota_data`, filled by the quota-data job). */
export function registerDataRoutes(app: FastifyInstance, context: AppContext): void {
  const repository = new QuotaDataRepository(context.database.db, context.logDatabase.db);
  const now = () => context.clock.unixSeconds();

  for (const url of withAndWithoutSlash('/api/data/')) {
    app.get(url, admin, async (request) => {
      const query = request.query as Query;
      return ok(await repository.buckets({ ...rangeFrom(query, now()), username: textParameter(query, 'username') }));
    });
  }
  for (const url of withAndWithoutSlash('/api/data/users')) {
    app.get(url, admin, async (request) => ok(await repository.bucketsPerUser(rangeFrom(request.query as Query, now()))));
  }
  for (const url of withAndWithoutSlash('/api/data/self')) {
    app.get(url, user, async (request) => ok(await repository.buckets({ ...rangeFrom(request.query as Query, now()), userId: requireUser(request).id })));
  }
}
