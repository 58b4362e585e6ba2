import { budgetPeriodNames, type BudgetPeriodName, type BudgetRequest } from '@switchboard/contracts';
import { Button, Flex, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QuotaInput } from './quota-input.tsx';

interface BudgetEditorProps {
  /** The saved budget (budget_quota 0: none). */
  value: BudgetRequest;
  saving: boolean;
  onSave: (next: BudgetRequest) => void;
  /** Names the controls for tests and screen readers (one editor per drawer). */
  testId: string;
}

/**
 * A spending budget: how often it starts again (none, day, week, month) and how much, in quota units
 * with the currency beside them. Saved on its own button, apart from the form around it.
 */
export function BudgetEditor(props: BudgetEditorProps) {
  // A new saved value starts the fields afresh (a remount rather than copying props into state).
  return <BudgetFields key={`${props.value.budget_period}:${props.value.budget_quota}`} {...props} />;
}

function BudgetFields({ value, saving, onSave, testId }: BudgetEditorProps) {
  const { t } = useTranslation('common');
  const [period, setPeriod] = useState<BudgetPeriodName | ''>(value.budget_period);
  const [quota, setQuota] = useState(value.budget_quota);
  const none = period === '';
  const invalid = !none && quota <= 0;
  return (
    <Flex vertical gap={8} data-testid={testId}>
      <Flex gap={8} align="center" wrap>
        <Typography.Text>{t('budget.period')}</Typography.Text>
        <Select<BudgetPeriodName | ''>
          aria-label={t('budget.period')}
          data-testid={`${testId}-period`}
          value={period}
          onChange={setPeriod}
          style={{ width: 160 }}
          options={[{ value: '', label: t('budget.none') }, ...budgetPeriodNames.map((name) => ({ value: name, label: t(`budget.periods.${name}`) }))]}
        />
      </Flex>
      <QuotaInput value={quota} onChange={setQuota} disabled={none} id={`${testId}-quota`} />
      {invalid && <Typography.Text type="danger">{t('budget.quotaRequired')}</Typography.Text>}
      <Flex>
        <Button
          type="primary"
          loading={saving}
          disabled={invalid}
          data-testid={`${testId}-save`}
          onClick={() => onSave(none ? { budget_quota: 0, budget_period: '' } : { budget_quota: quota, budget_period: period })}
        >
          {t('budget.save')}
        </Button>
      </Flex>
    </Flex>
  );
}
