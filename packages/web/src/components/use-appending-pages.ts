import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';

interface AppendingPagesOptions<T> {
  /** Identifies the list and its filters; the page size is appended to it. */
  queryKey: QueryKey;
  /** Fetches one server page (`p` counts from 0) of `size` rows. */
  fetchPage: (page: number, size: number, signal: AbortSignal) => Promise<T[]>;
  pageSize: number;
  enabled: boolean;
  /** How many table rows a list of items makes (e.g. channels grouped under one row per tag). */
  rowCount: (items: T[]) => number;
}

/**
 * The classic console lists (tokens, channels, codes) answer a bare array per page with no total, so the
 * table pages locally over what was loaded and fetches the next server page when the visitor reaches
 * the last loaded page; a short page means the end.
 */
export function useAppendingPages<T>({ queryKey, fetchPage, pageSize, enabled, rowCount }: AppendingPagesOptions<T>) {
  const query = useInfiniteQuery({
    queryKey: [...queryKey, pageSize],
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, pageSize, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => (rowCount(lastPage) >= pageSize ? pages.length : undefined),
    enabled,
  });

  const items = useMemo(() => query.data?.pages.flat() ?? [], [query.data]);
  const loadedRows = rowCount(items);
  const loadedPages = Math.max(1, Math.ceil(loadedRows / pageSize));
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = query;

  return {
    items,
    // One extra page is announced while the server may hold more, as the classic console did.
    total: hasNextPage ? loadedPages * pageSize + 1 : loadedRows,
    loading: query.isLoading || isFetchingNextPage,
    fetching: query.isFetching,
    error: query.error,
    /** Fetches the next server page once the table is turned past the loaded ones. */
    reach: (page: number) => {
      if (page > loadedPages && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
  };
}
