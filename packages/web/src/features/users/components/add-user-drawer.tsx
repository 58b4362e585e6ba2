import { accountLimits } from '@switchboard/contracts';
import { App, Button, Drawer, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { createUser, type CreateUserInput } from '../api/create-user.ts';

interface AddUserDrawerProps {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}

/** Username and password required, display name optional; the new user is an ordinary user. */
export function AddUserDrawer({ open, onClose, onCreated }: AddUserDrawerProps) {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const [form] = Form.useForm<CreateUserInput>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: CreateUserInput) => {
    setBusy(true);
    try {
      await createUser({ username: values.username.trim(), display_name: (values.display_name ?? '').trim(), password: values.password });
      void message.success(t('add.created'));
      form.resetFields();
      onCreated();
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Drawer
      title={t('add.title')}
      open={open}
      onClose={onClose}
      size={420}
      destroyOnHidden
      footer={
        <Space style={{ float: 'right' }}>
          <Button onClick={onClose}>{t('actions.cancel', { ns: 'common' })}</Button>
          <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid="add-user-submit">
            {t('actions.save', { ns: 'common' })}
          </Button>
        </Space>
      }
    >
      <Form form={form} name="userAdd" layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="username" label={t('form.username')} rules={[{ required: true, whitespace: true, message: t('form.usernameRequired') }]}>
          <Input maxLength={accountLimits.usernameMax} placeholder={t('form.usernamePlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="display_name" label={t('form.displayName')}>
          <Input maxLength={accountLimits.displayNameMax} placeholder={t('form.displayNamePlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('form.password')}
          rules={[
            { required: true, message: t('form.passwordRequired') },
            { min: accountLimits.passwordMin, message: t('form.passwordTooShort') },
          ]}
        >
          <Input.Password maxLength={accountLimits.passwordMax} placeholder={t('form.passwordPlaceholder')} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
