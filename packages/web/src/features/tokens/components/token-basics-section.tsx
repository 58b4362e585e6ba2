import { Button, DatePicker, Flex, Form, Input } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat } from '../../../lib/date-time.ts';

const shortcuts = [
  { key: 'minute', add: [1, 'minute'] },
  { key: 'hour', add: [1, 'hour'] },
  { key: 'day', add: [1, 'day'] },
  { key: 'month', add: [1, 'month'] },
] as const;

/** Name and expiry (with the spec's shortcuts: never, one minute, hour, day, month). */
export function TokenBasicsSection({ creating }: { creating: boolean }) {
  const { t } = useTranslation('tokens');
  const form = Form.useFormInstance();
  return (
    <>
      <Form.Item name="name" label={t('form.name')} rules={creating ? [{ required: true, whitespace: true, message: t('form.nameRequired') }] : []}>
        <Input placeholder={t('form.namePlaceholder')} maxLength={50} showCount autoComplete="off" />
      </Form.Item>
      <Form.Item
        label={t('form.expiredTime')}
        required={false}
        extra={
          <Flex gap={6} wrap style={{ marginTop: 8 }}>
            <Button size="small" onClick={() => form.setFieldValue('expires', null)}>
              {t('form.expiry.never')}
            </Button>
            {shortcuts.map((shortcut) => (
              <Button key={shortcut.key} size="small" onClick={() => form.setFieldValue('expires', dayjs().add(shortcut.add[0], shortcut.add[1]))}>
                {t(`form.expiry.${shortcut.key}`)}
              </Button>
            ))}
          </Flex>
        }
      >
        <Form.Item
          name="expires"
          noStyle
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (value === null || value === undefined) return;
                if (!dayjs.isDayjs(value) || !value.isValid()) throw new Error(t('form.expiredInvalid'));
                if (value.isBefore(dayjs())) throw new Error(t('form.expiredPast'));
              },
            },
          ]}
        >
          <DatePicker
            showTime
            format={dateTimeFormat}
            placeholder={t('form.expiredPlaceholder')}
            aria-label={t('form.expiredTime')}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form.Item>
    </>
  );
}
