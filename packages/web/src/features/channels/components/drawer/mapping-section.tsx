import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { isJsonObjectOrEmpty, modelMappingExample } from '../../lib/channel-form.ts';

/** Model redirect and status-code mapping, both JSON objects. */
export function MappingSection() {
  const { t } = useTranslation('channels');
  return (
    <>
      <Form.Item
        name="model_mapping"
        label={t('form.modelMapping')}
        extra={t('form.modelMappingHelp')}
        rules={[
          {
            validator: async (_rule, value: string) => {
              if (!isJsonObjectOrEmpty(value)) throw new Error(t('form.mappingInvalid'));
            },
          },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder={modelMappingExample} />
      </Form.Item>
      <Form.Item
        name="status_code_mapping"
        label={t('form.statusCodeMapping')}
        extra={t('form.statusCodeMappingHelp')}
        rules={[
          {
            validator: async (_rule, value: string) => {
              if (!isJsonObjectOrEmpty(value)) throw new Error(t('form.jsonInvalid'));
            },
          },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder={'{\n  "400": "500"\n}'} />
      </Form.Item>
    </>
  );
}
