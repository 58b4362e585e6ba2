import type { SelfBudgetView } from '@switchboard/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Flex, Form, Input, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BudgetUsage } from '../../../components/budget-usage.tsx';
import { QuotaInput } from '../../../components/quota-input.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { selfBudgetKey, useSelfBudget } from '../api/get-self-budget.ts';
import { saveAlertSettings } from '../api/save-alert-settings.ts';

interface AlertValues {
  followSite: boolean;
  threshold: number;
  webhookUrl: string;
  webhookSecret: string;
}

/** The user's own budget (read-only: administrators set it) and where and when alerts go. */
export function BudgetCard() {
  const { t } = useTranslation('settings');
  const budget = useSelfBudget();
  return (
    <Card size="small" title={t('personal.budget.title')} style={{ marginBottom: 16 }} data-testid="personal-budget">
      {budget.isLoading && <Skeleton active paragraph={{ rows: 2 }} />}
      {budget.isError && <Alert type="error" showIcon title={t('personal.budget.loadFailed', { message: budget.error.message })} />}
      {budget.data && <BudgetCardBody budget={budget.data} />}
    </Card>
  );
}

function BudgetCardBody({ budget }: { budget: SelfBudgetView }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const formatQuota = useQuotaFormatter();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AlertValues>();
  const [saving, setSaving] = useState(false);
  const followSite = Form.useWatch('followSite', form) ?? !budget.own_threshold;

  const save = async (values: AlertValues) => {
    setSaving(true);
    try {
      const secret = values.webhookSecret.trim();
      await saveAlertSettings({
        quota_warning_threshold: values.followSite ? null : values.threshold,
        webhook_url: values.webhookUrl.trim(),
        ...(secret ? { webhook_secret: secret } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: selfBudgetKey });
      form.setFieldValue('webhookSecret', '');
      void message.success(t('personal.budget.saved'));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  const removeSecret = async () => {
    setSaving(true);
    try {
      await saveAlertSettings({
        quota_warning_threshold: budget.own_threshold ? budget.quota_warning_threshold : null,
        webhook_url: budget.webhook_url,
        webhook_secret: '',
      });
      await queryClient.invalidateQueries({ queryKey: selfBudgetKey });
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Flex vertical gap={4}>
        <Typography.Text strong>{t('personal.budget.budgetLabel')}</Typography.Text>
        <BudgetUsage budget={budget} />
        <Typography.Text type="secondary">{t('personal.budget.budgetHelp')}</Typography.Text>
      </Flex>
      <Typography.Text type="secondary">{t('personal.budget.alertsHelp')}</Typography.Text>
      <Form<AlertValues>
        form={form}
        layout="vertical"
        initialValues={{ followSite: !budget.own_threshold, threshold: budget.quota_warning_threshold, webhookUrl: budget.webhook_url, webhookSecret: '' }}
        onFinish={(values) => void save(values)}
      >
        <Form.Item name="followSite" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox>{t('personal.budget.followSite', { amount: formatQuota(budget.site_threshold) })}</Checkbox>
        </Form.Item>
        <Form.Item name="threshold" label={t('personal.budget.threshold')}>
          <QuotaInput disabled={followSite} />
        </Form.Item>
        <Form.Item
          name="webhookUrl"
          label={t('personal.budget.webhookUrl')}
          extra={t('personal.budget.webhookUrlHelp')}
          rules={[{ pattern: /^(https?:\/\/\S+)?$/, message: t('personal.budget.invalidUrl') }]}
        >
          <Input placeholder="https://" data-testid="alert-webhook-url" />
        </Form.Item>
        <Form.Item name="webhookSecret" label={t('personal.budget.webhookSecret')} extra={t('personal.budget.webhookSecretHelp')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        {budget.webhook_secret_set && (
          <Flex gap={8} align="center" style={{ marginBottom: 16 }}>
            <Typography.Text type="secondary">{t('personal.budget.secretSet')}</Typography.Text>
            <Button size="small" onClick={() => void removeSecret()} disabled={saving}>
              {t('personal.budget.removeSecret')}
            </Button>
          </Flex>
        )}
        <Button type="primary" htmlType="submit" loading={saving} data-testid="alert-save">
          {t('personal.budget.save')}
        </Button>
      </Form>
    </Flex>
  );
}
