import type { SelfBudgetView } from '@switchboard/contracts';
import { useOpeningQuery } from '../../../components/use-form-drawer.ts';
import { api } from '../../../lib/api-client.ts';
import { selfKey } from './get-self.ts';

export const selfBudgetKey = [...selfKey, 'budget'] as const;

/**
 * `GET /api/budget/self`: the user's own budget with this period's use, and their alert settings.
 * Fetched afresh each time the card mounts (the personal tab opened), never shown from an earlier
 * answer: the alert form fills itself from the first answer it gets, so an old copy would stay in it.
 */
export function useSelfBudget() {
  return useOpeningQuery(true, { queryKey: selfBudgetKey, queryFn: (signal) => api.get<SelfBudgetView>('/api/budget/self', undefined, signal) });
}
