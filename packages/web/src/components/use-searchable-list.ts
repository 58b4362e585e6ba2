import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import type { TableRowSelection } from 'antd/es/table/interface';
import { useCallback, useState, type Key } from 'react';
import { pageSizeOptions } from './page-size.ts';
import { useAppendingPages } from './use-appending-pages.ts';
import type { ListState } from './use-list-state.ts';

interface SearchableListOptions<Item, Search extends object, Row> {
  /** Every query of the list lives under this key, a module constant: `refresh` invalidates it. */
  queryKey: QueryKey;
  /** Anything else the fetchers read (sort order, tag mode): part of every cache key. */
  filters?: unknown;
  /** The search, page and page size, and where they are kept (see useListState). */
  state: ListState<Search>;
  /** One server page (`p` from 0) of the list, or of a search's matches when `fetchSearch` is absent. */
  fetchPage: (search: Search, page: number, size: number, signal: AbortSignal) => Promise<Item[]>;
  /** For a server that answers a search whole: every match at once, paged in the browser. */
  fetchSearch?: (search: Search, signal: AbortSignal) => Promise<Item[]>;
  /**
   * The server answers a bare array per page, without a total. `append`: the loaded pages are kept and
   * the next one is fetched when the visitor reaches the last (tokens, codes, channels); `replace`: the
   * page shown is the one fetched, and a full page means another may follow (users).
   */
  pages: 'append' | 'replace';
  /** The table rows the items make (channels grouped under one row per tag); the items themselves by default. */
  toRows?: (items: Item[]) => Row[];
  /** The table's row key, which selection is kept by. */
  rowKey: (row: Row) => Key;
}

/** A search is on when any of its fields is filled in. */
function isSearching(search: object): boolean {
  return Object.values(search).some((value) => value !== '');
}

/**
 * A console table over a list the server pages without totals: the search, the page and page size
 * (kept where `state` keeps them), the selected rows, and `refresh`, which is stable so a page can
 * build its columns once with it.
 */
export function useSearchableList<Item, Search extends object, Row = Item>(options: SearchableListOptions<Item, Search, Row>) {
  const { queryKey, filters, state, fetchPage, fetchSearch, pages, rowKey } = options;
  // Without toRows, Row is Item (its default): the items are the rows.
  const toRows = options.toRows ?? ((items: Item[]) => items as unknown as Row[]);
  const { search, page, pageSize, update } = state;
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Row[]>([]);
  const source = isSearching(search) && fetchSearch ? 'whole' : pages;

  const appended = useAppendingPages({
    queryKey: [...queryKey, 'pages', filters, search],
    fetchPage: (serverPage, size, signal) => fetchPage(search, serverPage, size, signal),
    pageSize,
    enabled: source === 'append',
    rowCount: (items) => toRows(items).length,
  });
  const single = useQuery({
    queryKey: [...queryKey, 'page', filters, search, page, pageSize],
    queryFn: ({ signal }) => fetchPage(search, page - 1, pageSize, signal),
    enabled: source === 'replace',
    placeholderData: keepPreviousData,
  });
  const whole = useQuery({
    queryKey: [...queryKey, 'search', filters, search],
    queryFn: ({ signal }) => fetchSearch?.(search, signal) ?? Promise.resolve([]),
    enabled: source === 'whole',
  });

  const items = source === 'append' ? appended.items : ((source === 'replace' ? single.data : whole.data) ?? []);
  const rows = toRows(items);
  let total = rows.length;
  if (source === 'append') total = appended.total;
  if (source === 'replace') total = (page - 1) * pageSize + rows.length + (rows.length === pageSize ? 1 : 0);
  const pagination: TablePaginationConfig = {
    // A fetched page is shown as asked for; pages over loaded rows stop at the last one.
    current: source === 'replace' ? page : Math.min(page, Math.max(1, Math.ceil(total / pageSize))),
    pageSize,
    total,
    pageSizeOptions,
    showSizeChanger: true,
    onChange: (nextPage, nextSize) => {
      // A page number of the old size means nothing in the new one.
      if (nextSize !== pageSize) return update({ page: 1, pageSize: nextSize });
      update({ page: nextPage });
      if (source === 'append') appended.reach(nextPage);
    },
  };
  const rowSelection: TableRowSelection<Row> = { selectedRowKeys: selected.map(rowKey), onChange: (_keys, chosen) => setSelected(chosen) };

  // Invalidating never rejects (failures show through the queries), so callers need not await it.
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey }), [queryClient, queryKey]);
  // While a page is replaced the previous one stays on screen, so the table spins for any fetch.
  const status =
    source === 'append'
      ? appended
      : source === 'replace'
        ? { loading: single.isFetching, fetching: single.isFetching, error: single.error }
        : { loading: whole.isLoading, fetching: whole.isFetching, error: whole.error };

  return {
    rows,
    search,
    setSearch: (next: Search) => update({ search: next, page: 1 }),
    pagination,
    selection: { rows: selected, rowSelection, clear: () => setSelected([]) },
    loading: status.loading,
    fetching: status.fetching,
    error: status.error,
    refresh,
  };
}
