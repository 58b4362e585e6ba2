import { Flex, Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { usageLimitFields } from '../../lib/channel-form.ts';

/** Auto-ban, tag, priority, weight, first-byte timeout and RPM/TPM ceilings: how the router treats the channel. */
export function RoutingSection() {
  const { t } = useTranslation('channels');
  return (
    <>
      <Form.Item name="auto_ban" label={t('form.autoBan')} valuePropName="checked" extra={t('form.autoBanHelp')}>
        <Switch />
      </Form.Item>
      <Form.Item name="tag" label={t('form.tag')}>
        <Input allowClear placeholder={t('form.tagPlaceholder')} />
      </Form.Item>
      <Flex gap={16} wrap>
        <Form.Item name="priority" label={t('form.priority')} extra={t('form.priorityHelp')} style={{ flex: 1, minWidth: 180 }}>
          <InputNumber precision={0} min={-999} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="weight" label={t('form.weight')} extra={t('form.weightHelp')} style={{ flex: 1, minWidth: 180 }}>
          <InputNumber precision={0} min={0} style={{ width: '100%' }} />
        </Form.Item>
      </Flex>
      <Form.Item name="first_byte_timeout" label={t('form.firstByteTimeout')} extra={t('form.firstByteTimeoutHelp')}>
        <InputNumber
          precision={0}
          min={1}
          max={3600}
          placeholder={t('form.firstByteTimeoutPlaceholder')}
          suffix={t('form.secondsUnit')}
          style={{ width: '100%' }}
        />
      </Form.Item>
      <Form.Item label={t('form.usageLimits')} extra={t('form.usageLimitsHelp')} style={{ marginBottom: 0 }}>
        <Flex gap={16} wrap>
          {usageLimitFields.map((field) => (
            <Form.Item key={field} name={field} label={t(`form.${field}`)} style={{ flex: 1, minWidth: 140 }}>
              <InputNumber precision={0} min={0} placeholder={t('form.usageLimitNone')} style={{ width: '100%' }} />
            </Form.Item>
          ))}
        </Flex>
      </Form.Item>
    </>
  );
}
