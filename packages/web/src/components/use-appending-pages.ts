import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';

/** The page sizes the spec offers on every list. */
export const pageSizeOptions = [10, 20, 50, 100];

/** The page size stored under `storageKey` when it is one the lists offer, else `fallback`. */
export function readPageSize(storageKey: string | undefined, fallback: number): number {
  if (!storageKey) return fallback;
  const stored = Number(localStorage.getItem(storageKey));
  return pageSizeOptions.includes(stored) ? stored : fallback;
}

interface AppendingPagesOptions<T> {
  /** Identifies the list and its filters; the page size is appended to it. */
  queryKey: QueryKey;
  /** Fetches one server page (`p` counts from 0) of `size` rows. */
  fetchPage: (page: number, size: number, signal: AbortSignal) => Promise<T[]>;
  /** Remembers the chosen page size in localStorage under this name. */
  pageSizeStorageKey?: string;
  defaultPageSize?: number;
  enabled?: boolean;
  /** How many table rows a list of items makes (e.g. channels grouped under one row per tag); default one each. */
  rowCount?: (items: T[]) => number;
}

/**
 * The classic console lists (tokens, channels, codes) answer a bare array per page with no total, so the
 * table pages locally over what was loaded and fetches the next server page when the visitor reaches
 * the last loaded page; a short page means the end.
 */
export function useAppendingPages<T>({
  queryKey,
  fetchPage,
  pageSizeStorageKey,
  defaultPageSize = 10,
  enabled = true,
  rowCount = (items) => items.length,
}: AppendingPagesOptions<T>) {
  const [pageSize, setPageSizeState] = useState(() => readPageSize(pageSizeStorageKey, defaultPageSize));
  const [page, setPage] = useState(1);
  const query = useInfiniteQuery({
    queryKey: [...queryKey, pageSize],
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, pageSize, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => (rowCount(lastPage) >= pageSize ? pages.length : undefined),
    enabled,
  });

  const rows = useMemo(() => query.data?.pages.flat() ?? [], [query.data]);
  const loadedRows = rowCount(rows);
  const loadedPages = Math.max(1, Math.ceil(loadedRows / pageSize));
  // One extra page is announced while the server may hold more, as the classic console did.
  const total = query.hasNextPage ? loadedPages * pageSize + 1 : loadedRows;
  const currentPage = Math.min(page, Math.max(1, Math.ceil(total / pageSize)));
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = query;

  const changePage = useCallback(
    (nextPage: number, nextSize: number) => {
      if (nextSize !== pageSize) {
        if (pageSizeStorageKey) localStorage.setItem(pageSizeStorageKey, String(nextSize));
        setPageSizeState(nextSize);
        setPage(1);
        return;
      }
      setPage(nextPage);
      if (nextPage > loadedPages && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    [pageSize, pageSizeStorageKey, loadedPages, hasNextPage, isFetchingNextPage, fetchNextPage],
  );

  return {
    rows,
    page: currentPage,
    pageSize,
    total,
    loading: query.isLoading || query.isFetchingNextPage,
    error: query.error,
    refetch: query.refetch,
    resetPage: () => setPage(1),
    changePage,
  };
}
