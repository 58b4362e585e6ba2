import type { DrawingView, Page } from '@switchboard/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

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
      api
        .get<Page<DrawingView> | null>(
          admin ? '/api/mj/' : '/api/mj/self/',
          {
            p: page,
            page_size: pageSize,
            mj_id: filters.mj_id,
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
