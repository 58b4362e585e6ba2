import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Divider, Flex, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BudgetEditor } from '../../../components/budget-editor.tsx';
import { BudgetUsage } from '../../../components/budget-usage.tsx';
import { saveUserBudget, userBudgetKey, useUserBudget } from '../api/user-budget.ts';

/** An administrator's view of a user's spending budget per day, week or month; saved on its own. */
export function UserBudgetSection({ userId }: { userId: number }) {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const budget = useUserBudget(userId);
  const [saving, setSaving] = useState(false);

  const save = async (input: Parameters<typeof saveUserBudget>[1]) => {
    setSaving(true);
    try {
      await saveUserBudget(userId, input);
      await queryClient.invalidateQueries({ queryKey: userBudgetKey(userId) });
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
      {budget.isLoading && <Skeleton active paragraph={{ rows: 2 }} />}
      {budget.isError && <Alert type="error" showIcon title={budget.error.message} />}
      {budget.data && (
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">{t('budget.help')}</Typography.Text>
          <BudgetUsage budget={budget.data} />
          <BudgetEditor
            testId="user-budget"
            saving={saving}
            value={{ budget_quota: budget.data.budget_quota, budget_period: budget.data.budget_period }}
            onSave={(input) => void save(input)}
          />
        </Flex>
      )}
    </>
  );
}
