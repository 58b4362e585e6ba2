import { channelTypes } from '@switchboard/contracts';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { TypeExtraFields } from './type-extra-fields.tsx';

const typeOptions = channelTypes.map((info) => ({ value: info.type, label: `${info.label} (${info.type})` }));

/** The channel type and the inputs that only some types have. */
export function TypeSection() {
  const { t } = useTranslation('channels');
  const type = Form.useWatch<number | undefined>('type');
  return (
    <>
      <Form.Item name="type" label={t('form.type')} rules={[{ required: true, message: t('form.typeRequired') }]}>
        <Select showSearch={{ optionFilterProp: 'label' }} options={typeOptions} />
      </Form.Item>
      <TypeExtraFields type={type ?? 1} />
    </>
  );
}
