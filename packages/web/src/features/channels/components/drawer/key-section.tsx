import { findChannelType, firstMisshapenKey } from '@switchboard/contracts';
import { Form, Input, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRoot, useStoredUser } from '../../../../lib/use-stored-user.ts';
import { RevealKey } from './reveal-key.tsx';

/** The format the type's key is written in, and the sentence that goes with it (where the rest of the credential lives). */
function KeyFormatHint({ type }: { type: number }) {
  const { t } = useTranslation('channels');
  const format = findChannelType(type)?.keyFormat;
  if (!format) return null;
  return (
    <span data-testid="key-format-hint">
      {t('form.keyFormat')}
      <Typography.Text code>{format.pattern}</Typography.Text>
      {format.note && <> {t(`form.keyNote.${format.note}`)}</>}
    </span>
  );
}

/**
 * The upstream key; new channels can be created in batch with one key per line. Editing never shows
 * the stored key (an empty field keeps it); the super administrator may reveal it on request. Types
 * whose key is in a vendor's native format show it, and a key of another shape is refused before
 * sending, as the server would.
 */
export function KeySection({ channelId }: { channelId?: number }) {
  const { t } = useTranslation('channels');
  const root = isRoot(useStoredUser());
  const creating = channelId === undefined;
  const batch = Form.useWatch<boolean | undefined>('batch') === true;
  const type = Form.useWatch<number | undefined>('type') ?? 1;
  const info = findChannelType(type);
  const format = info?.keyFormat;
  // A Vertex key is a whole service-account JSON file.
  const vertex = info?.extraField === 'vertex';
  const multiline = batch || vertex;
  const placeholder = vertex
    ? t('form.keyVertex')
    : batch
      ? t('form.keyBatch')
      : !creating
        ? t('form.keyKeep')
        : format?.shape
          ? format.pattern
          : t('form.keyPlaceholder');
  const formatRule = {
    validator: async (_rule: unknown, value: string | undefined) => {
      const position = value?.trim() ? firstMisshapenKey(type, value) : undefined;
      if (position !== undefined) throw new Error(t('form.keyFormatInvalid', { format: format?.pattern ?? '', position }));
    },
  };
  const rules = creating ? [{ required: true, whitespace: true, message: t('form.keyRequired') }, formatRule] : [formatRule];
  return (
    <>
      {creating && (
        <Form.Item name="batch" label={t('form.batch')} valuePropName="checked" extra={t('form.batchHelp')}>
          <Switch />
        </Form.Item>
      )}
      <Form.Item name="key" label={t('form.key')} rules={rules} extra={<KeyFormatHint type={type} />} dependencies={['type']}>
        {multiline ? (
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
