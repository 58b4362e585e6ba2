import { Button, Flex, Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { QuotaInput } from '../../../components/quota-input.tsx';
import { batchCountPresets } from '../lib/token-defaults.ts';

/** Quota (presets, disabled when unlimited), the unlimited switch and, on create, how many to make. */
export function TokenQuotaSection({ creating }: { creating: boolean }) {
  const { t } = useTranslation('tokens');
  const form = Form.useFormInstance();
  const unlimited = Form.useWatch('unlimited_quota', form) === true;
  return (
    <>
      <Form.Item name="unlimited_quota" label={t('form.unlimited')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="remain_quota"
        label={t('form.quota')}
        extra={t('form.quotaHelp')}
        rules={[
          {
            validator: async (_rule, value: unknown) => {
              if (typeof value === 'number' && value < 0) throw new Error(t('form.quotaNegative'));
            },
          },
        ]}
      >
        <QuotaInput disabled={unlimited} />
      </Form.Item>
      {creating && (
        <Form.Item label={t('form.count')} extra={t('form.countHelp')}>
          <Flex vertical gap={8}>
            <Form.Item
              name="count"
              noStyle
              rules={[
                {
                  validator: async (_rule, value: unknown) => {
                    if (!Number.isInteger(value) || Number(value) < 1) throw new Error(t('form.countInvalid'));
                  },
                },
              ]}
            >
              <InputNumber min={1} precision={0} style={{ width: 200 }} />
            </Form.Item>
            <Flex gap={6} wrap>
              <Button size="small" onClick={() => form.setFieldValue('count', 1)}>
                {t('form.createOnly')}
              </Button>
              {batchCountPresets.map((count) => (
                <Button key={count} size="small" onClick={() => form.setFieldValue('count', count)}>
                  {t('form.countPreset', { count })}
                </Button>
              ))}
            </Flex>
          </Flex>
        </Form.Item>
      )}
    </>
  );
}
