import { useQuery } from '@tanstack/react-query';
import type { BudgetRequest, BudgetView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

const userBudgetKey = (id: number) => ['users', 'budget', id] as const;

/** `GET /api/budget/users/{id}` (administrators): a user's budget and this period's use. */
export function useUserBudget(id: number) {
  return useQuery({ queryKey: userBudgetKey(id), queryFn: ({ signal }) => api.get<BudgetView>(`/api/budget/users/${id}`, undefined, signal) });
}

/** `PUT /api/budget/users/{id}` (administrators): sets (or with 0, clears) a user's budget. */
export function saveUserBudget(id: number, input: BudgetRequest): Promise<BudgetView> {
  return api.put<BudgetView>(`/api/budget/users/${id}`, input);
}
