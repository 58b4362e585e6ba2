import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';

/** The upstream key; new channels can be created in batch with one key per line. */
export function KeySection({ creating }: { creating: boolean }) {
  const { t } = useTranslation('channels');
  const batch = Form.useWatch<boolean | undefined>('batch') === true;
  const type = Form.useWatch<number | undefined>('type');
  const placeholder = type === 41 ? t('form.keyVertex') : batch ? t('form.keyBatch') : creating ? t('form.keyPlaceholder') : t('form.keyKeep');
  return (
    <>
      {creating && (
        <Form.Item name="batch" label={t('form.batch')} valuePropName="checked" extra={t('form.batchHelp')}>
          <Switch />
        </Form.Item>
      )}
      <Form.Item name="key" label={t('form.key')} rules={creating ? [{ required: true, whitespace: true, message: t('form.keyRequired') }] : []}>
        {batch || type === 41 ? <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} placeholder={placeholder} /> : <Input.Password placeholder={placeholder} autoComplete="new-password" />}
      </Form.Item>
    </>
  );
}
