import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Divider, Flex, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BudgetEditor } from '../../../components/budget-editor.tsx';
import { BudgetUsage } from '../../../components/budget-usage.tsx';
import { tokensQueryKey } from '../api/list-tokens.ts';
import { saveTokenBudget, useTokenBudgetsForOpening } from '../api/token-budgets.ts';

/**
 * The token's spending budget per day, week or month, with this period's use. Saved on its own
 * (the budget is not part of the token's fields); a new token gets one once it exists.
 */
export function TokenBudgetSection({ tokenId }: { tokenId: number | undefined }) {
  const { t } = useTranslation('tokens');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const budgets = useTokenBudgetsForOpening();
  const [saving, setSaving] = useState(false);
  const budget = budgets.data?.find((row) => row.id === tokenId);

  const save = async (input: Parameters<typeof saveTokenBudget>[1]) => {
    if (tokenId === undefined) return;
    setSaving(true);
    try {
      await saveTokenBudget(tokenId, input);
      await queryClient.invalidateQueries({ queryKey: tokensQueryKey });
      void message.success(t('budget.saved'));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Divider titlePlacement="start">{t('budget.title')}</Divider>
      {tokenId === undefined ? (
        <Typography.Text type="secondary">{t('budget.afterCreate')}</Typography.Text>
      ) : budgets.isError ? (
        <Alert type="error" showIcon title={budgets.error.message} />
      ) : !budgets.data ? (
        // The editor starts from the budget it is given: it waits for this opening's answer.
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">{t('budget.help')}</Typography.Text>
          <BudgetUsage budget={budget} />
          <BudgetEditor
            testId="token-budget"
            saving={saving}
            value={{ budget_quota: budget?.budget_quota ?? 0, budget_period: budget?.budget_period ?? '' }}
            onSave={(input) => void save(input)}
          />
        </Flex>
      )}
    </>
  );
}
