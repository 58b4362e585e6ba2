import { Divider, Form, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const limitFields = [
  { name: 'rpm_limit', label: 'limits.rpm', help: 'limits.rpmHelp' },
  { name: 'tpm_limit', label: 'limits.tpm', help: 'limits.tpmHelp' },
  { name: 'concurrency_limit', label: 'limits.concurrency', help: 'limits.concurrencyHelp' },
] as const;

/** The token's own request limits (requests and tokens per minute, requests at once); empty is unlimited. */
export function TokenLimitsSection() {
  const { t } = useTranslation('tokens');
  return (
    <>
      <Divider titlePlacement="start">{t('limits.title')}</Divider>
      <Typography.Paragraph type="secondary">{t('limits.help')}</Typography.Paragraph>
      {limitFields.map((field) => (
        <Form.Item key={field.name} name={field.name} label={t(field.label)} extra={t(field.help)}>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} placeholder={t('limits.unlimited')} aria-label={t(field.label)} />
        </Form.Item>
      ))}
    </>
  );
}
