import { useSearchParams } from 'react-router';
import { pageSizeOptions } from '../../../components/page-size.ts';
import type { ListState } from '../../../components/use-list-state.ts';
import type { UserSearch } from '../components/users-search-bar.tsx';

const defaultPageSize = 10;

/** The users table keeps its view in the address (?keyword=&group=&p=&size=, `p` from 0), so a reload or a shared link keeps it. */
export function useUrlListState(): ListState<UserSearch> {
  const [params, setParams] = useSearchParams();
  const size = Number(params.get('size'));
  const view = {
    search: { keyword: params.get('keyword') ?? '', group: params.get('group') ?? '' },
    page: Math.max(0, Number(params.get('p')) || 0) + 1,
    pageSize: pageSizeOptions.includes(size) ? size : defaultPageSize,
  };
  return {
    ...view,
    update: (next) => {
      const merged = { ...view, ...next };
      const address: Record<string, string> = {};
      if (merged.search.keyword) address.keyword = merged.search.keyword;
      if (merged.search.group) address.group = merged.search.group;
      if (merged.page > 1) address.p = String(merged.page - 1);
      if (merged.pageSize !== defaultPageSize) address.size = String(merged.pageSize);
      setParams(address, { replace: true });
    },
  };
}
