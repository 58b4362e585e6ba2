import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';
import { pageSizeOptions, readPageSize, rememberPageSize } from './page-size.ts';

interface TablePagingOptions {
  /** Remembers the chosen page size in localStorage under this name. */
  storageKey?: string;
  defaultPageSize?: number;
}

/**
 * Page and page size of a list the server pages (it answers items and a total). Changing the page
 * size goes back to the first page, as a page number of the old size means nothing in the new one.
 */
export function useTablePaging({ storageKey, defaultPageSize = 10 }: TablePagingOptions = {}) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(() => readPageSize(storageKey, defaultPageSize));
  const pagination = (total: number): TablePaginationConfig => ({
    current: page,
    pageSize,
    total,
    pageSizeOptions,
    showSizeChanger: true,
    onChange: (nextPage, nextSize) => {
      if (nextSize === pageSize) return setPage(nextPage);
      rememberPageSize(storageKey, nextSize);
      setPageSize(nextSize);
      setPage(1);
    },
  });
  return { page, pageSize, firstPage: () => setPage(1), pagination };
}
