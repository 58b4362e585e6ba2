import type { Page } from '@switchboard/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** An async (music) task; times are Unix seconds. */
export interface AsyncTask {
  id: number;
  task_id: string;
  platform: string;
  /** MUSIC or LYRICS. */
  action: string;
  /** NOT_START, SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE, UNKNOWN; empty while submitting. */
  status: string;
  progress: string;
  fail_reason: string;
  channel_id: number;
  submit_time: number;
  start_time: number;
  finish_time: number;
  data?: unknown;
  [field: string]: unknown;
}

export interface TaskFilters {
  channel_id: string;
  task_id: string;
  start_timestamp: number;
  end_timestamp: number;
}

/** `GET /api/task/` (administrators) or `/api/task/self`: one page (from 1). */
export function useTasks(filters: TaskFilters, page: number, pageSize: number, admin: boolean) {
  return useQuery<Page<AsyncTask>>({
    queryKey: ['tasks', admin, filters, page, pageSize],
    queryFn: ({ signal }) =>
      api
        .get<Page<AsyncTask> | null>(
          admin ? '/api/task/' : '/api/task/self',
          {
            p: page,
            page_size: pageSize,
            task_id: filters.task_id,
            start_timestamp: filters.start_timestamp,
            end_timestamp: filters.end_timestamp,
            ...(admin ? { channel_id: filters.channel_id } : {}),
          },
          signal,
        )
        .then((data) => data ?? { items: [], total: 0, page, page_size: pageSize }),
    placeholderData: keepPreviousData,
  });
}
