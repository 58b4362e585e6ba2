import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { ok } from '../../../core/http/envelope.ts';
import { pageFrom } from '../../../core/http/listing/page-query.ts';
import { integerParameter } from '../../../core/http/listing/query-parameters.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import { logFiltersFrom } from './log-filters.ts';
import { logMessages } from './log.messages.ts';
import type { LogService } from './log.service.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const user = { config: { access: 'user' as const } };

/** Usage logs: every user's for administrators, one's own for everyone; pages from 1. */
export function registerLogRoutes(app: FastifyInstance, service: LogService): void {
  for (const url of withAndWithoutSlash('/api/log/')) {
    app.get(url, { config: { access: 'admin', paging: 'from-one' } }, async (request) => {
      const query = request.query as Query;
      const page = pageFrom(request);
      return ok(await service.adminPage(logFiltersFrom(query), page.page, page.pageSize));
    });
    app.delete(url, admin, async (request) => {
      const before = integerParameter(request.query as Query, 'target_timestamp');
      if (before === undefined || before <= 0) throw new AppError(logMessages.targetTimestampRequired);
      return ok(await service.purge(before));
    });
  }
  for (const url of withAndWithoutSlash('/api/log/self/')) {
    app.get(url, { config: { access: 'user', paging: 'from-one' } }, async (request) => {
      const query = request.query as Query;
      const page = pageFrom(request);
      return ok(await service.selfPage(logFiltersFrom(query, { userId: requireUser(request).id }), page.page, page.pageSize));
    });
  }
  app.get('/api/log/stat', admin, async (request) => ok(await service.stat(logFiltersFrom(request.query as Query))));
  app.get('/api/log/self/stat', user, async (request) => ok(await service.stat(logFiltersFrom(request.query as Query, { userId: requireUser(request).id }))));
}
