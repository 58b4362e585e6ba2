import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { ok } from '../../../core/http/envelope.ts';
import type { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { listFilterNumber, textParameter } from '../../../core/http/listing/query-parameters.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import type { TaskListFilters } from './task.repository.ts';
import type { TaskService } from './task.service.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const, paging: 'by-dialect' as const } };
const user = { config: { access: 'user' as const, paging: 'by-dialect' as const } };

/** The filters of the drawing and task lists; a user's own list ignores `channel_id`. */
function filtersFrom(query: Query, upstreamIdParameter: string, self?: { userId: number }): TaskListFilters {
  const positive = (name: string) => {
    const value = listFilterNumber(query, name);
    return value !== undefined && value > 0 ? value : undefined;
  };
  return {
    upstreamId: textParameter(query, upstreamIdParameter) || undefined,
    start: positive('start_timestamp'),
    end: positive('end_timestamp'),
    ...(self ? { userId: self.userId } : { channelId: positive('channel_id') }),
  };
}

/**
 * `/api/mj/` and `/api/task/` (administrators: everyone's) and their `self` variants: a bare array
 * paged from 0 in the classic dialect (the drawing and task pages of that console read nothing else),
 * `{items, total, page, page_size}` paged from 1 in the later one.
 */
export function registerTaskRoutes(app: FastifyInstance, service: TaskService, lists: ListDialect): void {
  // The page is read before the filters, so a bad page is the error a caller is told about.
  const list = (kind: 'drawings' | 'tasks', self: boolean) => async (request: FastifyRequest) => {
    const page = lists.page(request);
    const filters = filtersFrom(request.query as Query, kind === 'drawings' ? 'mj_id' : 'task_id', self ? { userId: requireUser(request).id } : undefined);
    return ok(kind === 'drawings' ? lists.shape(await service.drawings(filters, page)) : lists.shape(await service.tasks(filters, page)));
  };
  for (const url of withAndWithoutSlash('/api/mj/')) app.get(url, admin, list('drawings', false));
  for (const url of withAndWithoutSlash('/api/mj/self/')) app.get(url, user, list('drawings', true));
  for (const url of withAndWithoutSlash('/api/task/')) app.get(url, admin, list('tasks', false));
  for (const url of withAndWithoutSlash('/api/task/self')) app.get(url, user, list('tasks', true));
}
