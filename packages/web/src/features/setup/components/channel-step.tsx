import { channelTypes, findChannelType } from '@switchboard/contracts';
import { Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ChannelValues {
  type: number;
  name: string;
  base_url: string;
  key: string;
  models: string;
}

const typeOptions = channelTypes.map((type) => ({ value: type.type, label: type.label }));

/** The first channel: the upstream, its key and the models it serves (the Channels page edits the rest later). */
export function ChannelStep() {
  const { t } = useTranslation('setup');
  const form = Form.useFormInstance<ChannelValues>();
  const type = Form.useWatch('type', form);
  const info = findChannelType(type ?? 1);
  return (
    <>
      <Typography.Paragraph type="secondary">{t('channel.intro')}</Typography.Paragraph>
      <Form.Item name="type" label={t('channel.type')}>
        <Select
          showSearch
          optionFilterProp="label"
          options={typeOptions}
          data-testid="setup-channel-type"
          onChange={(value: number) => form.setFieldsValue({ models: (findChannelType(value)?.defaultModels ?? []).join(',') })}
        />
      </Form.Item>
      <Form.Item name="name" label={t('channel.name')} rules={[{ required: true, message: t('channel.nameRule') }]}>
        <Input data-testid="setup-channel-name" />
      </Form.Item>
      <Form.Item name="base_url" label={t('channel.baseUrl')} extra={t('channel.baseUrlHelp', { url: info?.defaultBaseUrl || '—' })}>
        <Input placeholder={info?.defaultBaseUrl} data-testid="setup-channel-base-url" />
      </Form.Item>
      <Form.Item name="key" label={t('channel.key')} rules={[{ required: true, message: t('channel.keyRule') }]}>
        <Input.Password autoComplete="off" data-testid="setup-channel-key" />
      </Form.Item>
      <Form.Item name="models" label={t('channel.models')} extra={t('channel.modelsHelp')} rules={[{ required: true, message: t('channel.modelsRule') }]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} data-testid="setup-channel-models" />
      </Form.Item>
    </>
  );
}
