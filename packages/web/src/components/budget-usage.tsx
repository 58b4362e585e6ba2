import type { BudgetView } from '@switchboard/contracts';
import { Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatUnixTime } from '../lib/date-time.ts';
import { useQuotaFormatter } from '../lib/system-status.ts';

/** The current period of a budget: used / budget in the display currency, a bar, and when it starts again. */
export function BudgetUsage({ budget, compact = false }: { budget: BudgetView | undefined; compact?: boolean }) {
  const { t } = useTranslation('common');
  const formatQuota = useQuotaFormatter();
  if (!budget || budget.budget_quota <= 0 || budget.budget_period === '') return <Typography.Text type="secondary">{t('budget.none')}</Typography.Text>;
  const percent = Math.min(100, Math.round((budget.period_used / budget.budget_quota) * 100));
  const label = t('budget.usage', {
    used: formatQuota(budget.period_used),
    budget: formatQuota(budget.budget_quota),
    period: t(`budget.periods.${budget.budget_period}`),
  });
  return (
    <Flex vertical gap={2} style={{ minWidth: compact ? 160 : undefined }} data-testid="budget-usage">
      <Typography.Text>{label}</Typography.Text>
      <Progress percent={percent} size="small" status={percent >= 100 ? 'exception' : 'normal'} showInfo={!compact} />
      {!compact && <Typography.Text type="secondary">{t('budget.resetsAt', { time: formatUnixTime(budget.period_end) })}</Typography.Text>}
    </Flex>
  );
}
