import { Alert, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserGroups } from '../api/list-user-groups.ts';
import { useUserModels } from '../api/list-user-models.ts';

/** IP allow-list, model limits and the token group. */
export function TokenAccessSection() {
  const { t } = useTranslation('tokens');
  const form = Form.useFormInstance();
  const limitModels = Form.useWatch('model_limits_enabled', form) === true;
  const models = useUserModels();
  const groups = useUserGroups();
  const groupOptions = Object.entries(groups.data ?? {}).map(([value, label]) => ({ value, label: label && label !== value ? `${value} (${label})` : value }));
  return (
    <>
      <Form.Item name="allow_ips" label={t('form.allowIps')} extra={t('form.allowIpsHelp')}>
        <Input.TextArea placeholder={t('form.allowIpsPlaceholder')} autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>
      <Form.Item name="model_limits_enabled" label={t('form.modelLimits')} valuePropName="checked">
        <Switch checkedChildren={t('form.modelLimitsEnabled')} />
      </Form.Item>
      {limitModels && (
        <Form.Item name="model_limits">
          <Select
            mode="multiple"
            allowClear
            loading={models.isLoading}
            placeholder={t('form.modelLimitsPlaceholder')}
            aria-label={t('form.modelLimitsPlaceholder')}
            options={(models.data ?? []).map((name) => ({ value: name, label: name }))}
          />
        </Form.Item>
      )}
      <Form.Item name="group" label={t('form.group')}>
        <Select
          allowClear
          loading={groups.isLoading}
          placeholder={t('form.groupDefault')}
          options={[{ value: '', label: t('form.groupDefault') }, ...groupOptions]}
        />
      </Form.Item>
      {groups.isSuccess && groupOptions.length === 0 && <Alert type="info" showIcon title={t('form.groupNone')} />}
    </>
  );
}
