import type { Page } from '@switchboard/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** A Midjourney task; its times are Unix milliseconds, as the drawing proxy reports them. */
export interface Drawing {
  id: number;
  mj_id: string;
  action: string;
  /** 0 not submitted, 1 submitted, 21 waiting, 22 duplicate. */
  code: number;
  status: string;
  progress: string;
  image_url: string;
  prompt: string;
  prompt_en: string;
  description?: string;
  fail_reason: string;
  channel_id: number;
  submit_time: number;
  start_time: number;
  finish_time: number;
}

export interface DrawingFilters {
  channel_id: string;
  mj_id: string;
  /** Milliseconds, like the rows. */
  start_timestamp: number;
  end_timestamp: number;
}

/** `GET /api/mj/` (administrators) or `/api/mj/self/`: one page (from 1). */
export function useDrawings(filters: DrawingFilters, page: number, pageSize: number, admin: boolean) {
  return useQuery<Page<Drawing>>({
    queryKey: ['drawings', admin, filters, page, pageSize],
    queryFn: ({ signal }) =>
      api
        .get<Page<Drawing> | null>(
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
