import { useQuery } from '@tanstack/react-query';
import type { BudgetRequest, BudgetView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';
import { tokensQueryKey } from './list-tokens.ts';

/** Under the tokens key: saving or refreshing tokens refreshes the budgets too. */
export const tokenBudgetsKey = [...tokensQueryKey, 'budgets'] as const;

/** `GET /api/budget/tokens`: the budget and the current period's use of each of the user's tokens. */
export function useTokenBudgets() {
  return useQuery({ queryKey: tokenBudgetsKey, queryFn: ({ signal }) => api.get<BudgetView[]>('/api/budget/tokens', undefined, signal) });
}

/** `PUT /api/budget/tokens/{id}`: sets (or with 0, clears) a token's budget. */
export function saveTokenBudget(id: number, input: BudgetRequest): Promise<BudgetView> {
  return api.put<BudgetView>(`/api/budget/tokens/${id}`, input);
}
