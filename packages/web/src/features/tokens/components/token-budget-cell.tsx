import { BudgetUsage } from '../../../components/budget-usage.tsx';
import { useTokenBudgets } from '../api/token-budgets.ts';

/** A token's budget use in the list; every row shares one query of all the user's token budgets. */
export function TokenBudgetCell({ tokenId }: { tokenId: number }) {
  const budgets = useTokenBudgets();
  return <BudgetUsage compact budget={budgets.data?.find((row) => row.id === tokenId)} />;
}
