import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRoot, useStoredUser } from '../../../../lib/use-stored-user.ts';
import { RevealKey } from './reveal-key.tsx';

/**
 * The upstream key; new channels can be created in batch with one key per line. Editing never shows
 * the stored key (an empty field keeps it); the super administrator may reveal it on request.
 */
export function KeySection({ channelId }: { channelId?: number }) {
  const { t } = useTranslation('channels');
  const root = isRoot(useStoredUser());
  const creating = channelId === undefined;
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
        {batch || type === 41 ? (
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} placeholder={placeholder} />
        ) : (
          <Input.Password placeholder={placeholder} autoComplete="new-password" />
        )}
      </Form.Item>
      {!creating && root && (
        <Form.Item label={t('form.storedKey')}>
          <RevealKey channelId={channelId} />
        </Form.Item>
      )}
    </>
  );
}
