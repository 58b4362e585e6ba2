import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requireUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { integerParameter, oneBasedPage } from '../listing/page-query.ts';
import { withAndWithoutSlash } from '../listing/route-paths.ts';
import { logFiltersFrom } from './log-filters.ts';
import { LogRepository } from './log.repository.ts';
import { logMessages } from './log.messages.ts';
import { LogService } from './log.service.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const user = { config: { access: 'user' as const } };

/** Usage logs: every user's for administrators, one's own for everyone; pages from 1. */
export function registerLogRoutes(app: FastifyInstance, context: AppContext): void {
  const service = new LogService(new LogRepository(context.logDatabase.db), context);

  for (const url of withAndWithoutSlash('/api/log/')) {
    app.get(url, admin, async (request) => {
      const query = request.query as Query;
      const page = oneBasedPage(query);
      return ok(await service.adminPage(logFiltersFrom(query), page.page, page.pageSize));
    });
    app.delete(url, admin, async (request) => {
      const before = integerParameter(request.query as Query, 'target_timestamp');
      if (before === undefined || before <= 0) throw new AppError(logMessages.targetTimestampRequired);
      return ok(await service.purge(before));
    });
  }
  for (const url of withAndWithoutSlash('/api/log/self/')) {
    app.get(url, user, async (request) => {
      const query = request.query as Query;
      const page = oneBasedPage(query);
      return ok(await service.selfPage(logFiltersFrom(query, { userId: requireUser(request).id }), page.page, page.pageSize));
    });
  }
  app.get('/api/log/stat', admin, async (request) => ok(await service.stat(logFiltersFrom(request.query as Query))));
  app.get('/api/log/self/stat', user, async (request) => ok(await service.stat(logFiltersFrom(request.query as Query, { userId: requireUser(request).id }))));
}
