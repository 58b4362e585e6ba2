import { useState } from 'react';
import { readPageSize, rememberPageSize } from './page-size.ts';

/** What a searchable list shows: the search, the page (from 1) and the page size. */
export interface ListView<Search> {
  search: Search;
  page: number;
  pageSize: number;
}

/** Where a list keeps that view: this visit's memory, or the address (see the users list). */
export interface ListState<Search> extends ListView<Search> {
  /** One call per change, so a store that writes the address writes it once. */
  update: (next: Partial<ListView<Search>>) => void;
}

/** A list's view for this visit only; the chosen page size is remembered under `pageSizeStorageKey`. */
export function useListState<Search>(emptySearch: Search, pageSizeStorageKey: string, defaultPageSize = 10): ListState<Search> {
  const [view, setView] = useState<ListView<Search>>(() => ({ search: emptySearch, page: 1, pageSize: readPageSize(pageSizeStorageKey, defaultPageSize) }));
  return {
    ...view,
    update: (next) => {
      if (next.pageSize !== undefined) rememberPageSize(pageSizeStorageKey, next.pageSize);
      setView((current) => ({ ...current, ...next }));
    },
  };
}
