import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGroups } from '../../api/catalogue-queries.ts';

/** Name and the groups that may use the channel. */
export function IdentitySection() {
  const { t } = useTranslation('channels');
  const groups = useGroups();
  return (
    <>
      <Form.Item name="name" label={t('form.name')} rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}>
        <Input placeholder={t('form.namePlaceholder')} autoComplete="off" />
      </Form.Item>
      <Form.Item name="groups" label={t('form.groups')} rules={[{ required: true, type: 'array', min: 1, message: t('form.groupsRequired') }]}>
        <Select
          mode="tags"
          allowClear
          loading={groups.isLoading}
          options={(groups.data ?? []).map((name) => ({ value: name, label: name }))}
          placeholder={t('form.groupsPlaceholder')}
        />
      </Form.Item>
    </>
  );
}
