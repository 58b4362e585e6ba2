import { useQuery } from '@tanstack/react-query';
import type { BudgetRequest, BudgetView } from '@switchboard/contracts';
import { useOpeningQuery } from '../../../components/use-form-drawer.ts';
import { api } from '../../../lib/api-client.ts';
import { tokensQueryKey } from './list-tokens.ts';

/** Under the tokens key: saving or refreshing tokens refreshes the budgets too. */
export const tokenBudgetsKey = [...tokensQueryKey, 'budgets'] as const;

/** `GET /api/budget/tokens`: the budget and the current period's use of each of the user's tokens. */
export function useTokenBudgets() {
  return useQuery({ queryKey: tokenBudgetsKey, queryFn: ({ signal }) => listTokenBudgets(signal) });
}

function listTokenBudgets(signal: AbortSignal): Promise<BudgetView[]> {
  return api.get<BudgetView[]>('/api/budget/tokens', undefined, signal);
}

/**
 * The budgets for the token drawer (its budget section is mounted per opening): fetched for each
 * opening and kept while it is open, so a budget being typed is not started afresh by a changed
 * answer, nor shown first from the list's older copy. Under the tokens key too: a save refreshes it.
 */
export function useTokenBudgetsForOpening() {
  return useOpeningQuery(true, { queryKey: tokenBudgetsKey, queryFn: listTokenBudgets });
}

/** `PUT /api/budget/tokens/{id}`: sets (or with 0, clears) a token's budget. */
export function saveTokenBudget(id: number, input: BudgetRequest): Promise<BudgetView> {
  return api.put<BudgetView>(`/api/budget/tokens/${id}`, input);
}
