import type { DrawingView, Page } from '@switchboard/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getCountedPage } from '../../../lib/list-dialect.ts';

/** How often a page showing unfinished drawings asks again, so their progress moves without a reload. */
const refreshWhileRunningMs = 3000;

/** Still moving on its own: not ended, and not waiting for the user's input in a modal window. */
const isRunning = (drawing: DrawingView) => !['SUCCESS', 'FAILURE', 'MODAL'].includes(drawing.status);

export interface DrawingFilters {
  channel_id: string;
  mj_id: string;
  /** Milliseconds, like the rows. */
  start_timestamp: number;
  end_timestamp: number;
}

/** `GET /api/mj/` (administrators) or `/api/mj/self/`: one page (from 1). */
export function useDrawings(filters: DrawingFilters, page: number, pageSize: number, admin: boolean) {
  return useQuery<Page<DrawingView>>({
    queryKey: ['drawings', admin, filters, page, pageSize],
    queryFn: ({ signal }) =>
      getCountedPage<DrawingView>(
        admin ? '/api/mj/' : '/api/mj/self/',
        {
          mj_id: filters.mj_id,
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
