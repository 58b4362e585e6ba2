import { useQuery } from '@tanstack/react-query';
import type { SelfBudgetView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';
import { selfKey } from './get-self.ts';

export const selfBudgetKey = [...selfKey, 'budget'] as const;

/** `GET /api/budget/self`: the user's own budget with this period's use, and their alert settings. */
export function useSelfBudget() {
  return useQuery({ queryKey: selfBudgetKey, queryFn: ({ signal }) => api.get<SelfBudgetView>('/api/budget/self', undefined, signal), staleTime: 0 });
}
