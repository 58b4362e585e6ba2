import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import { integerParameter, oneBasedPage, pageOf, textParameter } from '../listing/page-query.ts';
import { withAndWithoutSlash } from '../listing/route-paths.ts';
import { toDrawingView, toTaskView } from './task-view.ts';
import { TaskRepository, type TaskListFilters } from './task.repository.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const user = { config: { access: 'user' as const } };

/** The filters of the drawing and task lists; a user's own list ignores `channel_id`. */
function filtersFrom(query: Query, upstreamIdParameter: string, self?: { userId: number }): TaskListFilters {
  const positive = (name: string) => {
    const value = integerParameter(query, name);
    return value !== undefined && value > 0 ? value : undefined;
  };
  return {
    upstreamId: textParameter(query, upstreamIdParameter) || undefined,
    start: positive('start_timestamp'),
    end: positive('end_timestamp'),
    ...(self ? { userId: self.userId } : { channelId: positive('channel_id') }),
  };
}

/** `/api/mj/` and `/api/task/` (administrators: everyone's) and their `self` variants. */
export function registerTaskRoutes(app: FastifyInstance, context: AppContext): void {
  const repository = new TaskRepository(context.database.db);
  const forward = () => ({ enabled: context.options.getBoolean('MjForwardUrlEnabled'), serverAddress: context.options.get('ServerAddress') });

  const drawings = async (query: Query, self?: { userId: number }) => {
    const page = oneBasedPage(query);
    const { rows, total } = await repository.drawings(filtersFrom(query, 'mj_id', self), page.offset, page.pageSize);
    const settings = forward();
    return ok(pageOf(rows.map((row) => toDrawingView(row, settings)), total, page.page, page.pageSize));
  };
  const tasks = async (query: Query, self?: { userId: number }) => {
    const page = oneBasedPage(query);
    const { rows, total } = await repository.tasks(filtersFrom(query, 'task_id', self), page.offset, page.pageSize);
    return ok(pageOf(rows.map(toTaskView), total, page.page, page.pageSize));
  };

  for (const url of withAndWithoutSlash('/api/mj/')) app.get(url, admin, async (request) => drawings(request.query as Query));
  for (const url of withAndWithoutSlash('/api/mj/self/')) app.get(url, user, async (request) => drawings(request.query as Query, { userId: requireUser(request).id }));
  for (const url of withAndWithoutSlash('/api/task/')) app.get(url, admin, async (request) => tasks(request.query as Query));
  for (const url of withAndWithoutSlash('/api/task/self')) app.get(url, user, async (request) => tasks(request.query as Query, { userId: requireUser(request).id }));
}
