import type { BudgetRequest, BudgetView } from '@switchboard/contracts';
import { useOpeningQuery } from '../../../components/use-form-drawer.ts';
import { api } from '../../../lib/api-client.ts';

/** Under the users key: a save of the user's form refreshes it too. */
export const userBudgetKey = (id: number) => ['users', 'budget', id] as const;

/**
 * `GET /api/budget/users/{id}` (administrators): a user's budget and this period's use, fetched for
 * each opening of the user's drawer (the section is mounted per opening) and kept while it is open, so
 * a budget being typed is not started afresh by a changed answer.
 */
export function useUserBudget(id: number) {
  return useOpeningQuery(true, { queryKey: userBudgetKey(id), queryFn: (signal) => api.get<BudgetView>(`/api/budget/users/${id}`, undefined, signal) });
}

/** `PUT /api/budget/users/{id}` (administrators): sets (or with 0, clears) a user's budget. */
export function saveUserBudget(id: number, input: BudgetRequest): Promise<BudgetView> {
  return api.put<BudgetView>(`/api/budget/users/${id}`, input);
}
