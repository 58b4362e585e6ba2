import type { Page, TaskView } from '@switchboard/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getCountedPage } from '../../../lib/list-dialect.ts';

/** How often a page showing unfinished tasks asks again, so their progress moves without a reload. */
const refreshWhileRunningMs = 3000;

const isRunning = (task: TaskView) => task.status !== 'SUCCESS' && task.status !== 'FAILURE';

export interface TaskFilters {
  channel_id: string;
  task_id: string;
  start_timestamp: number;
  end_timestamp: number;
}

/** `GET /api/task/` (administrators) or `/api/task/self`: one page (from 1). */
export function useTasks(filters: TaskFilters, page: number, pageSize: number, admin: boolean) {
  return useQuery<Page<TaskView>>({
    queryKey: ['tasks', admin, filters, page, pageSize],
    queryFn: ({ signal }) =>
      getCountedPage<TaskView>(
        admin ? '/api/task/' : '/api/task/self',
        {
          task_id: filters.task_id,
          start_timestamp: filters.start_timestamp,
          end_timestamp: filters.end_timestamp,
          ...(admin ? { channel_id: filters.channel_id } : {}),
        },
        page,
        pageSize,
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some(isRunning) ? refreshWhileRunningMs : false),
  });
}
