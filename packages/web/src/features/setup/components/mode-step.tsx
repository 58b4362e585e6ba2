import { Form, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** new-api's use modes: self-use calls any model without a price; an operator's gateway charges for every call, so each model needs one. */
export function ModeStep() {
  const { t } = useTranslation('setup');
  return (
    <Form.Item name="selfUse" rules={[{ required: true, message: t('mode.required') }]}>
      <Radio.Group>
        <Space direction="vertical" size={12}>
          <Radio value={true} data-testid="setup-mode-self-use">
            <Typography.Text strong>{t('mode.selfUse')}</Typography.Text>
            <br />
            <Typography.Text type="secondary">{t('mode.selfUseHelp')}</Typography.Text>
          </Radio>
          <Radio value={false} data-testid="setup-mode-operator">
            <Typography.Text strong>{t('mode.operator')}</Typography.Text>
            <br />
            <Typography.Text type="secondary">{t('mode.operatorHelp')}</Typography.Text>
          </Radio>
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}
